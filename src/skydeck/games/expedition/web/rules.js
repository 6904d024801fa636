// The rules in short, in our own words (the full rules are the rulebooks; these are
// reminders for the table): the lobby's card shows the blurb, the set-up and the
// match page the list.
export const blurb = "Captains explore a growing map, recruit crew, build Embassies and complete Expeditions (solo: against the drone).";

export const html = `<ul class="rules">
<li><b>A round:</b> Production (collect resources where you have Embassies), Discovery (lay new Location tiles next to your ship), Sensors (roll the Sensor dice), Command (move, recruit, build, complete Expeditions, spend).</li>
<li><b>Crew</b> cards have skills and levels; Expeditions ask for certain skills and levels.</li>
<li><b>Embassies</b> on Locations produce Raw Materials and Crystals, and score points; the first rounds give a discount on a new Location.</li>
<li><b>Goal:</b> most Expedition points after the last round (ties: crew levels, then Location cards).</li></ul>`;
