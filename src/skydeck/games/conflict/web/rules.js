// The rules in short, in our own words (the full rules are the rulebooks; these are
// reminders for the table): the lobby's card shows the blurb, the set-up and the
// match page the list.
export const blurb = "2–4 fleets deploy ship cards against the clock, then lasers fire in initiative order.";

export const html = `<ul class="rules">
<li><b>Preparation:</b> secretly pick ships up to the battle's credit value (Dispute 10, Conflict 15, War 30). Your Cargo ship is dealt first, your Flagship last.</li>
<li><b>Deployment:</b> everyone at once places the top card anywhere on the table, at any angle, never touching another card, until the <b>timer</b> (30 / 60 / 120 s) runs out — or, with the Light Speed rule, until someone deploys their last card.</li>
<li><b>Battle:</b> ships fire in initiative order (lowest first; equal initiatives fire together). A laser runs straight until it meets a card; shields block it. Damage at or above hull destroys a ship after that initiative's shots.</li>
<li>Shooting a Cargo ship steals its cargo. <b>Score:</b> the VP of ships you destroyed plus cargo stolen.</li>
<li><b>On screen:</b> drag the card in hand onto the table and let go to deploy it (pressing on the table picks it up there). While you hold it, the wheel, Q/E or its round handle turn it; a green outline means the spot is free, red that it is off the table or touches a card. Escape puts it back; from the keyboard, focus the card, move it with the arrows and press Enter.</li></ul>`;
