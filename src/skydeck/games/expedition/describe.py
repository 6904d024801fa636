"""Stellar Expedition in words: card texts, move labels and log sentences.

One place turns content ids into what people read. ``catalogue(content)`` is every
card's face as short lines (crew: level, skills, Solo mission; Expeditions: requirement,
points, bonus; Upgrades: skill and ability; Encounters: the test and both outcomes;
Locations, Anomalies, Damage, Objectives, Galactic events, powers, drone cards), shared
by every view of a match so that a UI can show a full card on hover. ``describe`` names
a move ("play Ensign Okoro", "buy Command Bridge for 2 RM") and ``describe_event`` tells
what happened, from the event as the seat sees it (so never more than that seat knows).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from skydeck.core import Action
from skydeck.core.game import generic_event_sentence, seat_name, third_person
from skydeck.core.sentences import capitalised, counted, listed

if TYPE_CHECKING:
    from skydeck.games.expedition.content import Content

RES = {"rm": "RM", "crystal": "Crystal", "influence": "Influence"}
FACES = {
    "rm2": "2 Raw Materials",
    "crystal": "a Crystal",
    "upgrade": "an Upgrade",
    "special1": "special 1",
    "special2": "special 2",
    "encounter": "an Encounter",
    "blank": "nothing",
}
HARMS = {
    "damage": "a Damage card",
    "injury": "an Injury",
    "destroy": "a destroyed Upgrade",
    "steal": "a theft",
}


def skill(s: Any) -> str:
    return str(s).replace("_", " ").capitalize()


def resources(d: Mapping[str, Any]) -> str:
    """{"rm": 2, "crystal": 1} -> '2 RM and 1 Crystal'."""
    parts = [f"{d[k]} {v}" for k, v in RES.items() if d.get(k)]
    return listed(parts) if parts else "nothing"


def effect(e: Mapping[str, Any]) -> str:
    """One effect of the content (a plain dict with ``op``) as a phrase."""
    op = e.get("op")
    n = int(e.get("n", 1) or 1)
    if op == "gain":
        return f"gain {resources(e)}"
    if op == "lose":
        return f"lose {resources(e)}"
    if op == "moves":
        return counted(n, "extra move") + (" (Damage cannot slow them)" if e.get("immune") else "")
    if op == "take_upgrade":
        return "take an Upgrade from the store, free"
    if op == "injury":
        return "a crew member goes to the Sickbay" if n == 1 else f"{n} crew go to the Sickbay"
    if op == "damage":
        return f"take {counted(n, 'Damage card')}"
    if op == "destroy":
        return f"{counted(n, 'Upgrade')} destroyed"
    if op == "repair":
        return f"repair {counted(n, 'Damage', 'Damage')}"
    if op == "heal":
        return f"{counted(n, 'crew member', 'crew')} back from the Sickbay"
    if op == "steal":
        return f"take {e.get('rm')} RM from another ship"
    if op == "theft":
        return f"a thief takes {e.get('rm')} RM from you"
    if op == "attack":
        return f"another ship of your choice suffers {HARMS.get(str(e.get('harm')), 'harm')}"
    if op == "place_tiles":
        where = "anywhere next to the map" if e.get("anywhere") else "next to your ship"
        extra = " (1 RM or 1 Crystal per Recruiting Location)" if e.get("recruit_reward") else ""
        return f"draw and place {counted(n, 'Location tile')} {where}{extra}"
    if op == "local_production":
        return "collect the printed resources of your Location"
    if op == "trade":
        return "one trade: 2 of RM, Crystal or Influence for 1 of another"
    if op == "collect_remote":
        return "collect at one of your Embassies from afar"
    if op == "build_discount":
        return f"your next Embassy this round costs {n} less"
    if op == "points":
        return f"{counted(n, 'point')}"
    if op == "secret_expedition":
        return "take a Secret Expedition, free"
    if op == "prevent":
        return "cancel the harm"
    if op == "exchange":
        return "exchange RM and Crystals 2:1 this round"
    if op == "choose":
        return "choose: " + listed([effects(o) for o in e.get("options", [])], "or")
    if op == "d_move":
        return f"the drone moves {counted(n, 'time')}"
    if op == "d_embassy":
        return "the drone builds an Embassy"
    if op == "d_upgrade":
        return "a die roll removes an Upgrade from the store"
    if op == "d_expedition":
        return f"the drone completes the top {str(e.get('tier', '')).capitalize()} Expedition"
    if op == "d_points":
        return f"the drone scores {counted(n, 'point')}"
    if op == "d_discover":
        return f"{counted(n, 'Location tile')} placed next to the drone"
    if op == "d_extra":
        deck = "this" if e.get("deck") == "current" else "the previous"
        return f"an extra card from {deck} round's deck"
    if op == "d_attack":
        return f"your ship suffers {HARMS.get(str(e.get('harm')), 'harm')}"
    if op == "d_drain":
        return f"you lose {resources(e)}"
    return str(op).replace("_", " ")


def effects(es: Sequence[Any]) -> str:
    return listed([effect(_plain(e)) for e in es]) if es else "nothing"


def _plain(e: Any) -> Mapping[str, Any]:
    return e if isinstance(e, Mapping) else e.model_dump()


def _counted(words: Sequence[str]) -> list[str]:
    """['Pirate', 'Pirate', 'Soldier'] -> ['2 × Pirate', 'Soldier'] (first-seen order)."""
    counts: dict[str, int] = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    return [w if n == 1 else f"{n} × {w}" for w, n in counts.items()]


def requirement(r: Any) -> str:
    """A Requirement as a phrase: 'Officer + Psychic', 'crew levels 8+', ..."""
    if r is None:
        return "nothing"
    r = _plain(r)
    parts = []
    if r.get("skills"):
        parts.append(" + ".join(_counted([skill(s) for s in r["skills"]])))
    if r.get("levels"):
        lv = _counted([f"level {x}+" for x in sorted(r["levels"])])
        parts.append("crew of " + " + ".join(lv))
    if r.get("level_sum"):
        parts.append(f"crew levels adding up to {r['level_sum']}")
    if r.get("location"):
        parts.append(f"at a {str(r['location']).capitalize()} Location")
    if r.get("embassies"):
        parts.append(
            f"{counted(int(r['embassies']), 'Embassy', 'Embassies')} of yours on one "
            f"{str(r.get('embassy_type', '')).capitalize()} Location"
        )
    return ", ".join(parts) if parts else "nothing"


# --- the catalogue --------------------------------------------------------------------

_CATALOGUES: dict[int, tuple[Content, dict[str, dict[str, Any]]]] = {}


def catalogue(content: Content) -> dict[str, dict[str, Any]]:
    """Every card face of this content by id: ``kind``, ``name`` and ``lines`` (shared;
    do not mutate)."""
    hit = _CATALOGUES.get(id(content))
    if hit is not None and hit[0] is content:
        return hit[1]
    cards: dict[str, dict[str, Any]] = {}

    def add(cid: str, kind: str, name: str, lines: list[str], **extra: Any) -> None:
        cards[cid] = {"kind": kind, "name": name, "lines": lines, **extra}

    for c in content.crew:
        lines = [f"Level {c.level} · {', '.join(skill(s) for s in c.skills)}"]
        if c.solo:
            lines.append(f"Solo mission: {effects(c.solo)}")
        add(c.id, "crew", c.name, lines, level=c.level, skills=list(c.skills))
    for loc in content.locations:
        costs = " / ".join(resources(x.model_dump()) for x in loc.cost)
        lines = [
            f"{loc.type.capitalize()} · level {loc.level}"
            + (f" · {loc.kind.capitalize()}" if loc.kind != "recruit" else ""),
            f"Embassies cost {costs}",
            f"Produces {resources(loc.produce.model_dump())}",
        ]
        if loc.crew:
            crew = [
                content.crew[content.crew_index[x]].name
                for x in loc.crew
                if x in content.crew_index
            ]
            lines.append(f"Recruits {listed(crew)}")
        add(loc.id, "location", loc.name, lines)
    for a in content.anomalies:
        lines = [f"Anomaly · {a.kind}" + ("" if a.passable else " · impassable")]
        if a.discover:
            lines.append(f"When discovered: {effects(a.discover)}")
        if a.round_end:
            lines.append(f"End of round: {effects(a.round_end)}")
        for face, es in enumerate(a.roll, start=1):
            if es:
                lines.append(f"Roll {face}: {effects(es)}")
        add(a.id, "anomaly", a.name, lines)
    add("space_gate", "anomaly", "Space Gate", ["Where every ship starts"])
    for x in content.expeditions:
        lines = [
            f"{x.tier.capitalize()} · {counted(x.points, 'point')}",
            f"Needs {requirement(x.requires)}",
        ]
        if x.bonus is not None:
            lines.append(f"Bonus with {requirement(x.bonus.requires)}: {effects(x.bonus.reward)}")
        add(x.id, "expedition", x.name, lines, tier=x.tier, points=x.points)
    for u in content.upgrades:
        lines = [f"Skill: {skill(u.skill)}" if u.skill else "No skill"]
        lines.append(f"Ability (discard it): {effects(u.ability)}")
        if u.temporary:
            lines.append("Temporary")
        add(u.id, "upgrade", u.name, lines)
    for art in content.artifacts:
        lines = [f"Artifact · skill: {skill(art.skill)}" if art.skill else "Artifact"]
        if art.each_round:
            lines.append(f"Each Production: {effects(art.each_round)}")
        add(art.id, "upgrade", art.name, lines)
    for enc in content.encounters:
        add(enc.id, "encounter", enc.name, _encounter_lines(enc))
    for d in content.damage:
        lines = []
        if d.movement:
            lines.append("One move fewer each round")
        if d.effects:
            lines.append(f"When drawn: {effects(d.effects)}")
        add(d.id, "damage", d.name, lines or ["Covers an Upgrade slot"])
    for dash in content.dashboards:
        lines = [
            f"Special {i}: {s.name}: {effects(s.effects)}" for i, s in enumerate(dash.specials, 1)
        ]
        add(dash.faction, "faction", dash.name, lines)
    mf = content.mod
    if mf is not None:
        for p in mf.powers.powers:
            add(p.id, "power", p.name, [effects(p.effects)])
        for o in mf.objectives.cards:
            pts = " / ".join(str(x) for x in o.points)
            add(
                o.id,
                "objective",
                o.name,
                [
                    f"Most {_METRICS.get(o.metric, o.metric)} (at least {o.min})",
                    f"1st / 2nd / 3rd: {pts} points",
                ],
            )
        for ev in mf.events.events:
            add(ev.id, "event", ev.name, [ev.rule])
        for deck in mf.drone.decks:
            for card in deck:
                add(
                    card.id,
                    "drone",
                    "Drone action",
                    [capitalised(listed([effect(_plain(a)) for a in card.actions], "then"))],
                )
        if not content.artifacts:
            for art in mf.artifacts.artifacts:
                lines = [f"Artifact · skill: {skill(art.skill)}" if art.skill else "Artifact"]
                if art.each_round:
                    lines.append(f"Each Production: {effects(art.each_round)}")
                add(art.id, "upgrade", art.name, lines)
    _CATALOGUES[id(content)] = (content, cards)
    return cards


_METRICS = {
    "embassies": "Embassies",
    "full_locations": "full Locations",
    "location_cards": "Location cards",
    "expeditions": "Expeditions completed",
    "gold_expeditions": "Gold Expeditions",
    "crew_levels": "crew levels",
    "upgrades": "Upgrades",
    "resources": "resources",
    "influence": "Influence",
    "location_types": "Location types",
}


def _encounter_lines(enc: Any) -> list[str]:
    lines = []
    if enc.kind == "test":
        lines.append(f"Test: {requirement(enc.requires)}")
    elif enc.kind == "chance" and enc.chance is not None:
        ch = enc.chance
        lines.append(
            f"Chance: roll {ch.target}+ on a die, +{ch.per_helper} per {skill(ch.helper)} played"
        )
    elif enc.kind == "boon":
        lines.append("Boon")
    if enc.gift:
        lines.append(f"On drawing: {effects(enc.gift)}")
    if enc.bonus:
        lines.append(f"Overcome: {effects(enc.bonus)}")
    if enc.fail:
        lines.append(f"Failed: {effects(enc.fail)}")
    return lines


def name(content: Content, cid: Any) -> str:
    """The printed name of any card or tile id (the id in words if unknown)."""
    card = catalogue(content).get(str(cid))
    if card is None:
        return str(cid).replace("_", " ")
    if card["kind"] == "drone":
        return f"drone card ({card['lines'][0]})"
    return str(card["name"])


# --- moves ----------------------------------------------------------------------------

_TIER = {"bronze": "Bronze", "silver": "Silver", "gold": "Gold"}


def special_name(content: Content, view: Mapping[str, Any], k: int) -> str:
    """The name of special action ``k`` (1 or 2) of the seat the view is for: its
    Player power with that module, else its Dashboard's."""
    seat = view.get("seat")
    if seat is None:
        return f"special action {k}"
    me = view["players"][seat]
    powers = me.get("powers") or []
    if len(powers) == 2:
        return str(powers[k - 1]).replace("_", " ")
    dash = next(d for d in content.dashboards if d.faction == me["faction"])
    return dash.specials[k - 1].name


def describe(content: Content, action: Action, view: Mapping[str, Any] | None = None) -> str:
    """A move as a sentence: 'play Ensign Okoro (L1: Pilot)', 'buy Command Bridge for
    2 RM, discarding Relic Scanner'. Cells are named by the view (the browser shows the
    tile); here a move to a cell reads 'move to space 46'. Given the seat's view (a
    menu), a special action is named, the Starting tile said to be the seat's or the
    drone's, and a pass in an Upgrade's window said to keep the card."""
    k = action.kind
    a = [str(x) for x in action.args]
    nm = lambda i: name(content, a[i])  # noqa: E731
    try:
        if view is not None:
            if k == "special" and a:
                return f"use special action {a[0]}: {special_name(content, view, int(a[0]))}"
            if k == "start" and a:
                drone = view["engine"]["acted"] >= len(view["players"])
                whose = "the drone's" if drone else "your"
                return f"place {whose} Starting tile on space {a[0]}"
            if k == "pass" and (view.get("pending") or {}).get("kind") == "window":
                return "pass (keep it for later)"
        if k == "start":
            return f"place the Starting tile on space {a[0]}"
        if k == "draft":
            return f"keep Expedition {nm(0)} ({_exp_short(content, a[0])})"
        if k == "draft_pass":
            return "pass the rest of the pack"
        if k == "power_drop":
            return f"give up the power {nm(0)}"
        if k == "place":
            return f"place {nm(0)} on space {a[1]}"
        over = " over the Hazard on the way (roll its die)" if a and a[-1] == "hazard" else ""
        if k in ("move", "wormhole"):
            via = " through the Wormholes" if k == "wormhole" else ""
            return f"move to space {a[0]}{via}{over}"
        if k == "warp" and a[1] == "mixed":
            return (
                f"Warp Jump to space {a[0]}{over} ({a[2]} of the Jumps for 1 Crystal each, "
                "the others for 2 RM each)"
            )
        if k == "warp":
            price = "2 RM" if a[1] == "rm" else "1 Crystal"
            return (
                f"Warp Jump to space {a[0]}{over} ({price} for each space beyond the free movement)"
            )
        if k == "build" and len(a) > 1:
            only = " (the build discount only)" if a[0] == "bonus" else ""
            return (
                f"build an Embassy here{only}, the build discount taking {a[1]} off the "
                "Crystals and the rest off the Raw Materials"
            )
        if k == "build":
            how = {
                "exploration": " with the exploration discount only",
                "bonus": " with the build discount only",
                "full": " at the printed price",
            }.get(a[0] if a else "", "")
            return f"build an Embassy here{how}"
        if k == "collect":
            return "collect here with a Collection token"
        if k == "collect_at":
            return f"collect at {nm(0)} from afar"
        if k == "expedition":
            return f"attempt Expedition {nm(0)} ({_exp_short(content, a[0])})"
        if k == "buy":
            rest = f", discarding {nm(1)}" if len(a) > 1 else ""
            return f"buy {nm(0)} for 2 RM{rest}"
        if k == "take":
            rest = f", discarding {nm(1)}" if len(a) > 1 else ""
            return f"take {nm(0)}{rest}"
        if k == "repair":
            return "repair a Damage for 3 RM"
        if k == "reprogram":
            return f"reprogram {nm(0)} as {skill(a[1])} for 2 Crystals"
        if k == "solo":
            return f"send {nm(0)} on a Solo mission for 2 Crystals"
        if k == "react_solo":
            return f"answer with {nm(0)}'s Solo mission"
        if k == "react_upgrade":
            return f"answer with {nm(0)}"
        if k == "ability":
            return f"discard {nm(0)} for its ability"
        if k == "artifact":
            rest = f", discarding {nm(1)}" if len(a) > 1 else ""
            return f"take the Artifact {nm(0)}{rest}"
        if k == "replace":
            return f"replace {nm(0)} with a {_TIER.get(a[1], a[1])} Expedition for 1 Influence"
        if k == "scan":
            return "scan: place a tile next to you for 1 Influence"
        if k == "exchange":
            return "exchange 2:1 this round for 1 Influence"
        if k == "convert":
            return f"convert 2 {RES.get(a[0], a[0])} into 1 {RES.get(a[1], a[1])}"
        if k == "trade":
            return f"trade 2 {RES.get(a[0], a[0])} for 1 {RES.get(a[1], a[1])}"
        if k == "secret":
            return f"take a {_TIER.get(a[0], a[0])} Secret Expedition for 3 Influence"
        if k == "secret_free":
            return f"take a {_TIER.get(a[0], a[0])} Secret Expedition"
        if k == "draw":
            return f"draw a new {_TIER.get(a[0], a[0])} Expedition"
        if k == "token":
            return f"put a Collection token on {nm(0)}"
        if k == "end":
            return "end the Command phase"
        if k == "special":
            return f"use special action {a[0]}"
        if k == "reroll":
            return f"re-roll die {int(a[0]) + 1} for 1 Influence"
        if k == "reroll_free":
            return f"re-roll die {int(a[0]) + 1} (free)"
        if k == "encounter":
            return "face an Encounter"
        if k == "reward":
            return f"take the reward: {FACES.get(a[0], a[0])}"
        if k == "pick":
            return f"face {nm(0)}"
        if k == "play":
            return f"play {nm(0)} ({_crew_short(content, a[0])})"
        if k == "use":
            return f"use {nm(0)}'s skill"
        if k == "resolve":
            return "meet the test: overcome the Encounter"
        if k == "fail":
            return "give up: take the Encounter's failure"
        if k == "roll":
            return "roll the die"
        if k == "bonus":
            return "take the bonus"
        if k == "alt":
            return "take the other reward"
        if k == "complete":
            return "complete the Expedition"
        if k == "cancel":
            return "give up the attempt"
        if k == "option":
            return f"choose option {int(a[0]) + 1}"
        if k == "target":
            return f"target Player {int(a[0]) + 1}"
        if k == "accept":
            return "accept the harm"
        if k == "decline":
            return "decline"
        if k == "pass":
            return "pass"
    except (IndexError, ValueError):
        pass
    return str(action).replace("_", " ")


def _exp_short(content: Content, xid: str) -> str:
    card = catalogue(content).get(xid)
    return str(card["lines"][0]) if card else ""


def _crew_short(content: Content, cid: str) -> str:
    card = catalogue(content).get(cid)
    if not card or card["kind"] != "crew":
        return ""
    return f"L{card['level']}: {', '.join(skill(s) for s in card['skills'])}"


# --- events ---------------------------------------------------------------------------


def describe_event(
    content: Content,
    e: Mapping[str, Any],
    names: Sequence[str],
    factions: Sequence[str] = (),
    cells: Sequence[str] = (),
) -> str:
    """One log sentence per event, from what this seat sees of it; ``factions`` (public)
    names the seats' special actions, ``cells`` the tile on each map cell (public)."""

    def cell(c: Any) -> str:
        if isinstance(c, int) and 0 <= c < len(cells) and cells[c]:
            return name(content, cells[c])
        return f"space {c}"

    k = str(e.get("kind"))
    who = seat_name(names, e["seat"]) if e.get("seat") is not None else "The drone"
    nm = lambda key: name(content, e.get(key))  # noqa: E731
    if k == "action":
        if "action" not in e:
            return f"{who} made a secret choice"
        try:
            act = Action.parse(str(e["action"]))
        except ValueError:
            return f"{who} made a move"
        text = describe(content, act)
        if act.kind == "place" and act.args:  # the cell holds the new tile now
            text = f"place {name(content, act.args[0])} on the map"
        elif act.kind == "start" and act.args:
            text = "place the Starting tile"
        elif act.kind == "warp" and act.args:  # the price paid follows ("moved")
            text = f"Warp Jump to {cell(act.args[0])}"
        elif act.kind in ("move", "wormhole") and act.args:
            text = text.replace(f"space {act.args[0]}", cell(act.args[0]))
        return f"{who} {third_person(text)}"
    simple = _SIMPLE.get(k)
    if simple is not None:
        return simple.format(who=who)
    if k == "ability_used":
        return f"{who} discards {nm('upgrade')} for its ability"
    if k in ("special_ready", "special_used"):
        special = _special(content, factions, e.get("seat"), e.get("special"))
        if k == "special_ready":
            return f"{who}'s special action {special} is ready"
        return f"{who} uses the special action {special}"
    if k == "start_tile":
        whose = "the drone's" if len(names) <= int(e.get("seat") or 0) else f"{who}'s"
        return f"{capitalised(whose)} Starting tile {nm('tile')} joins the map"
    if k == "drafted":
        return f"{who} kept an Expedition from the pack"
    if k == "draft_done":
        lines = [
            f"{seat_name(names, s)}: {listed([name(content, x) for x in exps])}"
            for s, exps in enumerate(e.get("expeditions", []))
        ]
        return "The draft is over. " + "; ".join(lines)
    if k == "round":
        return f"Round {e.get('round')} begins; {seat_name(names, e.get('first'))} goes first"
    if k == "produced":
        where = listed([name(content, x) for x in e.get("locations", [])])
        return f"{who} produces {resources(e)} at {where}"
    if k == "tiles_drawn":
        return f"{who} draws {listed([name(content, x) for x in e.get('tiles', [])])}"
    if k == "placed_tile" or k == "tile_placed":
        return f"{who} places {nm('tile')} on the map"
    if k == "sensor_roll":
        return (
            f"{who} rolls the Sensor dice: {listed([FACES.get(d, d) for d in e.get('dice', [])])}"
        )
    if k == "encounters_drawn":
        return (
            f"{who} draws the Encounters {listed([name(content, x) for x in e.get('cards', [])])}"
        )
    if k == "encounter":
        return f"{who} meets {nm('card')}"
    if k == "chance_roll":
        ok = "success" if e.get("ok") else "failure"
        return f"{who} rolls {e.get('roll')} (needed {e.get('need')}): {ok}"
    if k == "moved":
        how = {"warp": " by Warp Jump", "wormhole": " through the Wormholes"}.get(
            str(e.get("how")), ""
        )
        paid = e.get("paid")
        if isinstance(paid, Mapping):  # a Warp Jump: the price paid, not the rule
            how += f", paying {resources(paid)}"
        return f"{who} moves to {cell(e.get('cell'))}{how}"
    if k == "collected":
        return f"{who} collects {resources(e)}"
    if k == "embassy":
        rec = f" and recruits {nm('recruit')}" if e.get("recruit") else ""
        cubes = counted(int(e.get("count", 1)), "cube")
        return f"{who} builds an Embassy on {nm('location')} ({cubes} there){rec}"
    if k == "upgrade_bought":
        return f"{who} buys {nm('upgrade')}"
    if k == "upgrade_taken":
        return f"{who} takes {nm('upgrade')}"
    if k == "solo_mission":
        return f"{who} sends {nm('crew')} on a Solo mission"
    if k == "expedition_drawn":
        return f"{who} draws the Expedition {nm('expedition')}"
    if k == "secret_expedition":
        if "expedition" in e:
            return f"{who} takes the Secret Expedition {nm('expedition')}"
        return f"{who} takes a {_TIER.get(str(e.get('tier')), 'secret')} Secret Expedition"
    if k == "expedition_completed":
        bonus = " with its bonus" if e.get("bonus") else ""
        return f"{who} completes the Expedition {nm('expedition')}{bonus}"
    if k == "prevented":
        return f"{who} cancels {HARMS.get(str(e.get('harm')), 'the harm')}"
    if k == "injured":
        return f"{who}'s {nm('crew')} goes to the Sickbay"
    if k == "damaged":
        return f"{who}'s ship takes the Damage card {nm('card')}"
    if k == "destroyed":
        return f"{who} loses the Upgrade {nm('upgrade')}"
    if k == "stolen":
        by = seat_name(names, e["by"]) if e.get("by") is not None else "a thief"
        return f"{capitalised(by)} takes {e.get('rm')} RM from {who}"
    if k == "powers_kept":
        return f"{who} keeps the powers {listed([name(content, x) for x in e.get('powers', [])])}"
    if k == "objective":
        return f"New Objective: {nm('objective')}"
    if k == "galactic_event":
        return f"Galactic event: {nm('event')}"
    if k == "hazard_roll":
        return f"{who} rolls {e.get('roll')} on {nm('tile')}"
    if k == "artifact":
        return f"{who} takes the Artifact {nm('artifact')}"
    if k == "drone_card":
        extra = " (an extra card)" if e.get("extra") else ""
        card = catalogue(content).get(str(e.get("card")))
        what = card["lines"][0] if card else "an action"
        return f"The drone turns over a card{extra}: {what}"
    if k == "drone_moved":
        return f"The drone rolls {e.get('roll')} and moves to {cell(e.get('cell'))}"
    if k == "drone_embassy":
        cubes = counted(int(e.get("count", 1)), "cube")
        return f"The drone builds an Embassy on {nm('location')} ({cubes} there)"
    if k == "drone_upgrade":
        return f"The drone rolls {e.get('roll')}: {nm('upgrade')} leaves the game"
    if k == "drone_expedition":
        return f"The drone completes the Expedition {nm('expedition')}"
    if k == "drone_drain":
        return f"The drone drains {resources(e)} from the player"
    if k == "game_over":
        scores = ", ".join(f"{seat_name(names, s)} {v}" for s, v in enumerate(e.get("scores", [])))
        return f"The game is over ({scores} points)"
    return generic_event_sentence(e, names)


def _special(content: Content, factions: Sequence[str], seat: Any, k: Any) -> str:
    """'2 (Hive Mind)': a special action by number, named when the faction is known."""
    try:
        dash = next(d for d in content.dashboards if d.faction == factions[int(seat)])
        return f"{k} ({dash.specials[int(k) - 1].name})"
    except (StopIteration, IndexError, TypeError, ValueError):
        return str(k)


_SIMPLE = {
    "command_done": "{who} ends the Command phase",
    "encounter_overcome": "{who} overcomes the Encounter",
    "encounter_failed": "{who} fails the Encounter",
}
