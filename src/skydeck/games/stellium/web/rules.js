// The rules in short, in our own words (the full rules are the rulebooks; these are
// reminders for the table): the lobby's card shows the blurb, the set-up and the
// match page the list.
export const blurb = "2–4 players draw celestial bodies from a bag and shape the Universe to fulfil Missions.";

export const html = `<ul class="rules">
<li><b>Turn:</b> pick a kind of body from the bag (you have <b>5 seconds</b>, or one is drawn at random), place it on an empty space, then its effect happens.</li>
<li><b>Effects:</b> Planet swaps another Planet with a neighbour; Comet pushes a line of bodies (maybe off the board) and takes the space; Star rotates its Galaxy disc; Supernova makes a Black Hole pull in a neighbour.</li>
<li>An <b>Influence token</b> may replace the effect with its colour's effect; each player has one of each colour.</li>
<li><b>Missions:</b> shapes and placements of coloured bodies. Complete as many as you can; the bodies used leave the board except one. Then take a new Mission (at most three unfinished in hand).</li>
<li>The game ends after the round in which someone reaches the target score or the Missions run out. Most Stelliums wins.</li></ul>`;
