// A short summary of each game's rules, in our own words (the full rules are the
// rulebooks; these are reminders for the table).
export const RULES = {
  stellarion: {
    blurb: "Solo or two-player co-op deck management: launch all the Voyages.",
    html: `<ul class="rules">
<li><b>Goal:</b> take every Voyage card (two per Galaxy in the base game). You lose if, when your turn starts, you can neither Launch nor Coordinate.</li>
<li><b>The Observatory</b> is eight decks: four Galaxy decks (Alpha, Beta, Gamma, Delta) and four Type decks (Ship, Nebula, Stars, Planet). Only the top card of each deck can be used; you know what each deck holds, not its order.</li>
<li><b>Launch:</b> use four cards of one Galaxy, one of each Type (from the tops and the Outpost). A Shooting Star token may stand in for one of them. You take that Galaxy's Voyage.</li>
<li><b>Coordinate:</b> discard two cards of the same Type to use its power: Ship searches a deck, Nebula brings discards back, Stars looks at two cards of a deck, Planet moves cards to the Outpost. Two identical cards give the stronger (major) power.</li>
<li>After your action, turn face up the top card of one deck whose top is face down.</li>
<li><b>The Outpost</b> keeps cards of a single Galaxy, no duplicates, to use in later Launches.</li>
<li>Expansions add Black Holes (Traverse), Theories, Mirrors and the Glaucous Sun track.</li></ul>`,
  },
  stellium: {
    blurb: "2–4 players draw celestial bodies from a bag and shape the Universe to fulfil Missions.",
    html: `<ul class="rules">
<li><b>Turn:</b> pick a kind of body from the bag (you have <b>5 seconds</b>, or one is drawn at random), place it on an empty space, then its effect happens.</li>
<li><b>Effects:</b> Planet swaps another Planet with a neighbour; Comet pushes a line of bodies (maybe off the board) and takes the space; Star rotates its Galaxy disc; Supernova makes a Black Hole pull in a neighbour.</li>
<li>An <b>Influence token</b> may replace the effect with its colour's effect; each player has one of each colour.</li>
<li><b>Missions:</b> shapes and placements of coloured bodies. Complete as many as you can; the bodies used leave the board except one. Then take a new Mission (at most three unfinished in hand).</li>
<li>The game ends after the round in which someone reaches the target score or the Missions run out. Most Stelliums wins.</li></ul>`,
  },
  expedition: {
    blurb: "Captains explore a growing map, recruit crew, build Embassies and complete Expeditions (solo: against the drone).",
    html: `<ul class="rules">
<li><b>A round:</b> Production (collect resources where you have Embassies), Discovery (lay new Location tiles next to your ship), Sensors (roll the Sensor dice), Command (move, recruit, build, complete Expeditions, spend).</li>
<li><b>Crew</b> cards have skills and levels; Expeditions ask for certain skills and levels.</li>
<li><b>Embassies</b> on Locations produce Raw Materials and Crystals, and score points; the first rounds give a discount on a new Location.</li>
<li><b>Goal:</b> most Expedition points after the last round (ties: crew levels, then Location cards).</li></ul>`,
  },
  conflict: {
    blurb: "2–4 fleets deploy ship cards against the clock, then lasers fire in initiative order.",
    html: `<ul class="rules">
<li><b>Preparation:</b> secretly pick ships up to the battle's credit value (Dispute 10, Conflict 15, War 30). Your Cargo ship is dealt first, your Flagship last.</li>
<li><b>Deployment:</b> everyone at once places the top card anywhere on the table, at any angle, never touching another card, until the <b>timer</b> (30 / 60 / 120 s) runs out — or, with the Light Speed rule, until someone deploys their last card.</li>
<li><b>Battle:</b> ships fire in initiative order (lowest first; equal initiatives fire together). A laser runs straight until it meets a card; shields block it. Damage at or above hull destroys a ship after that initiative's shots.</li>
<li>Shooting a Cargo ship steals its cargo. <b>Score:</b> the VP of ships you destroyed plus cargo stolen.</li>
<li><b>On screen:</b> drag the card in hand onto the table and let go to deploy it (pressing on the table picks it up there). While you hold it, the wheel, Q/E or its round handle turn it; a green outline means the spot is free, red that it is off the table or touches a card. Escape puts it back; from the keyboard, focus the card, move it with the arrows and press Enter.</li></ul>`,
  },
};

export function rulesFor(gameId) {
  return RULES[gameId] || { blurb: "", html: "<p>No summary yet.</p>" };
}
