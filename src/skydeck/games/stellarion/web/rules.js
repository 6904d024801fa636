// The rules in short, in our own words (the full rules are the rulebooks; these are
// reminders for the table): the lobby's card shows the blurb, the set-up and the
// match page the list.
export const blurb = "Solo or two-player co-op deck management: launch all the Voyages.";

export const html = `<ul class="rules">
<li><b>Goal:</b> take every Voyage card (two per Galaxy in the base game). You lose if, when your turn starts, you can neither Launch nor Coordinate.</li>
<li><b>The Observatory</b> is eight decks: four Galaxy decks (Alpha, Beta, Gamma, Delta) and four Type decks (Ship, Nebula, Stars, Planet). Only the top card of each deck can be used; you know what each deck holds, not its order.</li>
<li><b>Launch:</b> use four cards of one Galaxy, one of each Type (from the tops and the Outpost). A Shooting Star token may stand in for one of them. You take that Galaxy's Voyage.</li>
<li><b>Coordinate:</b> discard two cards of the same Type to use its power: Ship searches a deck, Nebula brings discards back, Stars looks at two cards of a deck, Planet moves cards to the Outpost. Two identical cards give the stronger (major) power.</li>
<li>After your action, turn face up the top card of one deck whose top is face down.</li>
<li><b>The Outpost</b> keeps cards of a single Galaxy, no duplicates, to use in later Launches.</li>
<li>Expansions add Black Holes (Traverse), Theories, Mirrors and the Glaucous Sun track.</li></ul>`;
