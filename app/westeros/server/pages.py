"""Where the frontend lives, and what the pages are given (template contexts, content JSON).

``frontend/`` (templates and static files, outside the Python package in the repository) is
found as package data ``westeros/frontend`` in an installed wheel, else beside ``app/`` in a
checkout. Plugins add template and static folders through ``register_templates`` /
``register_static``; the base game's frontend comes first, so it wins on equal names."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import quote

from markupsafe import Markup

from westeros.ai.difficulty import BY_STRENGTH, NAMED
from westeros.ai.personality import offered, resolve
from westeros.engine import EngineError, Ruleset, new_game
from westeros.engine.setup import choosable_houses
from westeros.plugins import LoadedPlugins, build_ruleset
from westeros.store import HUMAN, DamagedGame, GameInfo

from ..session import GameSession
from .games import DEFAULT_AI_LEVEL, NAME_LENGTH
from .narrate import option_labels

MAP_FILE = "map/westeros.svg"
CHOICES_URL = "/new-game/choices"
"""Where the start screen asks which player counts and houses the chosen options offer."""
TOGGLE_EXEMPT_SOURCES = ("default",)
_XML_PROLOGUE = re.compile(r"^\s*(<\?xml[^>]*\?>\s*)?(<!DOCTYPE[^>]*>\s*)?", re.IGNORECASE)
_STYLE = re.compile(r"<style[^>]*>(.*?)</style>", re.IGNORECASE | re.DOTALL)


def frontend_dir() -> Path | None:
    """The ``frontend`` folder: package data when installed, else the repository's."""
    packaged = resources.files("westeros").joinpath("frontend")
    if packaged.is_dir():
        return Path(str(packaged))
    checkout = Path(__file__).resolve().parents[3] / "frontend"
    return checkout if checkout.is_dir() else None


def template_folders(loaded: LoadedPlugins) -> list[str]:
    """The game's templates, then every plugin's, without repeats."""
    base = frontend_dir()
    folders = [str(base / "templates")] if base is not None else []
    return list(dict.fromkeys([*folders, *loaded.templates]))


def static_folders(loaded: LoadedPlugins) -> list[tuple[str, str]]:
    """(URL prefix under /static, folder) pairs; plugin prefixes first (more specific)."""
    base = frontend_dir()
    out = [(prefix.strip("/"), folder) for prefix, folder in loaded.static if prefix.strip("/")]
    if base is not None:
        out.append(("", str(base / "static")))
    return out


@functools.cache
def _read_map(path: str) -> tuple[str, str]:
    """(the SVG markup without its prologue and ``<style>`` elements, their CSS)."""
    svg = _XML_PROLOGUE.sub("", Path(path).read_text("utf-8"), count=1)
    css = "\n".join(m.group(1).strip() for m in _STYLE.finditer(svg))
    return _STYLE.sub("", svg), css


_MAP_AREA = re.compile(r'<g id="area-[^"]*" class="[^"]*" data-area="([^"]+)"')


@functools.cache
def _map_areas(path: str) -> frozenset[str]:
    """The ids of the areas a map file draws."""
    return frozenset(_MAP_AREA.findall(Path(path).read_text("utf-8")))


def _map_file(loaded: LoadedPlugins, rules: Ruleset | None = None) -> str | None:
    """The base map; for ``rules``, the shipped map (``map/*.svg``, see ``westeros.mapgen``)
    that draws all its areas with the fewest others, else the base map."""
    base = None
    for prefix, folder in reversed(static_folders(loaded)):
        path = Path(folder) / MAP_FILE
        if not prefix and path.is_file():
            base = path
            break
    if base is None or rules is None:
        return str(base) if base is not None else None
    needed = set(rules.areas)
    holding = [
        (len(_map_areas(str(p))), p.name, str(p))
        for p in sorted(base.parent.glob(f"{base.stem}*{base.suffix}"))
        if needed <= _map_areas(str(p))
    ]
    return min(holding)[2] if holding else str(base)


def map_svg(loaded: LoadedPlugins, rules: Ruleset | None = None) -> str:
    """The board's SVG markup (our own generated map, the one drawn for ``rules``) for
    inlining into the page, without its stylesheet: the Content-Security-Policy allows no
    inline style (``map_css``)."""
    path = _map_file(loaded, rules)
    return _read_map(path)[0] if path is not None else ""


def map_css(loaded: LoadedPlugins) -> str:
    """The map's own stylesheet (its ``<style>`` elements), served as ``/map.css``."""
    path = _map_file(loaded)
    return _read_map(path)[1] if path is not None else ""


NOT_GAME_HOOKS = frozenset(
    {
        "register_ai_personalities",
        "register_templates",
        "register_static",
        "register_translations",
        "register_client_scripts",
        "register_reference_cards",
        "register_help_sections",
        "register_map_shapes",
    }
)
"""Hooks that do not change the game's rules or content (AI and UI)."""


def changes_the_game(hooks: tuple[str, ...]) -> bool:
    """Does a plugin with these hooks change a game's content or rules?"""
    return any(h.startswith(("register_", "rule_")) and h not in NOT_GAME_HOOKS for h in hooks)


def toggleable_plugins(loaded: LoadedPlugins) -> list[dict[str, Any]]:
    """Plugins a new game may switch off: every loaded plugin that changes the game, but the
    base game and those switched by their own game options (Tides of Battle)."""
    return [
        {
            "id": p.name,
            "name": p.name.removeprefix("westeros_").replace("_", " ").capitalize(),
            "default": True,
        }
        for p in loaded.plugins
        if p.source not in TOGGLE_EXEMPT_SOURCES
        and "register_game_options" not in p.hooks
        and changes_the_game(p.hooks)
    ]


def _frozen(options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((str(k), v) for k, v in options.items()))


@functools.lru_cache(maxsize=64)
def _ruleset(options: tuple[tuple[str, Any], ...], disable: tuple[str, ...]) -> Ruleset | None:
    """The Ruleset of a new game with ``options`` (None when the plugins do not fit)."""
    try:
        return build_ruleset(dict(options), disable=disable)
    except EngineError:
        return None


def ruleset_of(options: Mapping[str, Any], disable: Iterable[str] = ()) -> Ruleset | None:
    """The Ruleset of a new game with ``options`` and the plugins ``disable`` switched off
    (None when the plugins do not fit), cached."""
    return _ruleset(_frozen(options), tuple(sorted(disable)))


@functools.lru_cache(maxsize=256)
def _playable(
    options: tuple[tuple[str, Any], ...], disable: tuple[str, ...]
) -> tuple[tuple[int, tuple[str, ...]], ...]:
    rules = _ruleset(options, disable)
    if rules is None:
        return ()
    counts = []
    for count in sorted(rules.setups):
        try:
            new_game(rules, count, 0, dict(options))
        except EngineError:  # a plugin's setup refuses this count (rule_setup)
            continue
        counts.append(count)
    # Options that leave houses to no player (vassals) offer only the counts they make.
    if any(rules.setups[n].players for n in counts):
        counts = [n for n in counts if rules.setups[n].players]
    return tuple((n, choosable_houses(rules, n)) for n in counts)


def playable_setups(
    options: Mapping[str, Any], disable: Iterable[str] = ()
) -> dict[int, list[str]]:
    """The player counts a new game with ``options`` (the plugins ``disable`` switched off)
    can be set up for, each with the houses a player may take (RULES.md 2.1; with vassals
    any house of the board or of a larger one, 11.2.5: ``choosable_houses``): the
    setups of the Ruleset those options make that the engine sets up (a plugin may refuse some
    counts); when some counts leave houses to no player (vassals), only those."""
    return {n: list(h) for n, h in _playable(_frozen(options), tuple(sorted(disable)))}


def option_choices(loaded: LoadedPlugins) -> list[dict[str, Any]]:
    """Each on/off game option switched on alone (with the options it requires): the options,
    for listing every house and player count the new-game screen may offer."""
    known = loaded.ruleset.options
    out = []
    for option in known.values():
        if not isinstance(option.default, bool) or option.default:
            continue
        chosen: dict[str, Any] = {}
        current: str | None = option.id
        while current in known and current not in chosen:
            chosen[current] = True
            current = known[current].requires
        out.append(chosen)
    return out


def start_context(
    loaded: LoadedPlugins,
    games: list[GameInfo],
    error: str | None = None,
    *,
    saved: list[GameInfo] | None = None,
    import_error: str | None = None,
    damaged: list[DamagedGame] | None = None,
) -> dict[str, Any]:
    """The context of ``start.html`` (documented at the top of that template): ``games`` to
    continue, ``saved`` the other stored games ("Load game"), ``damaged`` the stored games
    that cannot be read (each with the reason); the AI levels by strength and the
    personalities an AI seat may be given. Player counts and houses are those of every option
    (``option_choices``); ``setups`` those the default options can start."""
    rules = loaded.ruleset
    plugins = toggleable_plugins(loaded)
    lister = GameLister(rules, loaded, {p["id"]: p["name"] for p in plugins})
    defaults = {o.id: o.default for o in rules.options.values()}
    houses = {h.id: h.name for h in rules.houses.values()}
    counts = set(rules.setups)
    for chosen in option_choices(loaded):
        other = _ruleset(_frozen(defaults | chosen), ())
        if other is None:
            continue
        counts |= set(playable_setups(defaults | chosen))
        houses |= {h.id: h.name for h in other.houses.values() if h.id not in houses}
    return {
        "player_counts": sorted(counts),
        "houses": [{"id": h, "name": name} for h, name in houses.items()],
        "setups": playable_setups(defaults),
        "choices_url": CHOICES_URL,
        "options": [
            {
                "id": o.id,
                "name": o.name,
                "default": o.default,
                "description": o.description,
                "requires": o.requires or "",
                "shown": not o.requires or bool(defaults.get(o.requires)),
            }
            for o in rules.options.values()
        ],
        "plugins": plugins,
        **ai_choices(loaded, DEFAULT_AI_LEVEL),
        "name_length": NAME_LENGTH,
        "plugin_errors": [
            {"plugin": e.plugin, "source": e.source, "message": e.message} for e in loaded.errors
        ],
        "games": [lister.entry(g) for g in games],
        "saved": [lister.entry(g) for g in saved or []],
        "damaged": [damaged_entry(d) for d in damaged or []],
        "error": error,
        "import_error": import_error,
    }


def damaged_entry(game: DamagedGame) -> dict[str, Any]:
    """A damaged game as the start screen lists it (never to continue: issue 35 finding 1):
    {"id", "name", "reason", "delete_url"} (empty when its record cannot be read, which the
    delete page cannot show)."""
    delete_url = f"/games/{quote(game.id, safe='')}/delete" if game.readable else ""
    return {"id": game.id, "name": game.name, "reason": game.reason, "delete_url": delete_url}


def ai_choices(loaded: LoadedPlugins, default_level: str) -> dict[str, Any]:
    """What a form offers for AI seats: ``levels`` by strength (``difficulty.BY_STRENGTH``),
    ``default_level`` and the ``personalities`` an AI seat may be given."""
    return {
        "levels": [
            {"id": lv.id, "name": lv.name, "description": lv.description} for lv in BY_STRENGTH
        ],
        "default_level": default_level,
        "personalities": [
            {"id": p.id, "name": p.name, "description": p.description}
            for p in offered(loaded.ai_personalities).values()
        ],
    }


def seat_house(info: GameInfo) -> str:
    """The house a person plays in a game (the first human seat; else the first seat)."""
    humans = info.human_houses
    return humans[0] if humans else info.setup.seats[0].house


class GameLister:
    """Entries of the Continue / Load game lists with the names of the installed content:
    ``rules`` (houses, options), ``loaded`` (AI personalities) and ``plugins`` (the plugins a
    game may switch off, e.g. ports: id to name)."""

    def __init__(
        self,
        rules: Ruleset | None = None,
        loaded: LoadedPlugins | None = None,
        plugins: dict[str, str] | None = None,
    ) -> None:
        self.rules = rules
        self.personalities = offered(loaded.ai_personalities if loaded is not None else ())
        self.plugins = dict(plugins or {})
        self.levels = {lv.id: lv.name for lv in NAMED}

    def house_name(self, house: str) -> str:
        """The house's name in the content (else its id, in words)."""
        found = self.rules.houses.get(house) if self.rules is not None else None
        return found.name if found is not None else house.replace("_", " ").title()

    def options(self, info: GameInfo) -> list[str]:
        """Names of what the game was set up with beyond the base game: the switchable
        plugins it kept (ports) and the options switched on (Tides of Battle), or with a
        value other than on/off (name: value)."""
        names = [self.plugins[n] for n, _ in info.setup.plugins if n in self.plugins]
        known = self.rules.options if self.rules is not None else {}
        for key, value in sorted(info.setup.options.items()):
            option = known.get(key)
            if option is None or value is False or value is None:
                continue
            names.append(option.name if value is True else f"{option.name}: {value}")
        return names

    def seats(self, info: GameInfo) -> list[dict[str, Any]]:
        """Each seat: its house (id and name), whether an AI plays it and, if so, the level's
        and the personality's names."""
        out = []
        for s in info.setup.seats:
            ai = s.kind != HUMAN
            out.append(
                {
                    "house": s.house,
                    "name": self.house_name(s.house),
                    "ai": ai,
                    "level": self.levels.get(s.name, "") if ai else "",
                    "personality": resolve(s.personality, self.personalities).name if ai else "",
                }
            )
        return out

    def entry(self, info: GameInfo) -> dict[str, Any]:
        """One game of the lists (``game_entry``)."""
        return game_entry(info, self.rules, self)


def game_entry(
    info: GameInfo, rules: Ruleset | None = None, lister: GameLister | None = None
) -> dict[str, Any]:
    """One game of the Continue / Load game lists: name, house, round, date, seats (person or
    AI: level and personality), options, and where to play, replay, export or delete it.
    ``rules`` (the installed content) gives house and option names."""
    names = lister or GameLister(rules)
    house = seat_house(info)
    over = info.winner is not None
    base = f"/games/{info.id}"
    # While a game runs, only a house played by a person may be opened (server.core.seat_refusal).
    playable = over or any(s.house == house and s.kind == HUMAN for s in info.setup.seats)
    replay = f"{base}/replay" if over else f"{base}/replay/{house}"
    ai_levels = [s.name for s in info.setup.seats if s.kind != HUMAN]
    return {
        "id": info.id,
        "name": info.setup.name,
        "url": f"{base}/play/{house}" if playable else None,
        "title": info.setup.name or names.house_name(house),
        "house": house,
        "house_name": names.house_name(house),
        "round": info.round,
        "players": info.setup.players,
        "seats": names.seats(info),
        "levels": [names.levels[lv] for lv in dict.fromkeys(ai_levels) if lv in names.levels],
        "options": names.options(info),
        "status": info.status,
        "over": over,
        "winner": info.winner,
        "winner_name": names.house_name(info.winner) if info.winner else "",
        "actions": info.action_count,
        "updated_at": info.updated_at.isoformat(),
        "date": info.updated_at.strftime("%Y-%m-%d %H:%M"),
        "replay_url": replay if playable else None,
        "export_url": f"{base}/export" if over else None,  # holds every secret: routes/saves
        "delete_url": f"{base}/delete",
    }


def content_of(rules: Ruleset, seats: dict[str, str]) -> dict[str, Any]:
    """The game's content as the board needs it (names and facts by id; read by
    ``frontend/static/js/content.js``). ``seats`` maps each house to ``human`` or ``ai``."""
    return {
        "areas": {
            a.id: {
                "name": a.name,
                "kind": a.kind,
                "domain": rules.domain[a.id],
                "castle": a.castle,
                "crowns": a.crowns,
                "barrels": a.barrels,
                "home_of": a.home_of,
                **({"attrs": dict(a.attrs)} if a.attrs else {}),
            }
            for a in rules.areas.values()
        },
        "houses": {
            h.id: {"name": h.name, "colour": h.colour, "home": h.home}
            for h in rules.houses.values()
        },
        "house_cards": {
            c.id: {
                "name": c.name,
                "house": c.house,
                "strength": c.strength,
                "swords": c.swords,
                "fortifications": c.fortifications,
                "text": c.text,
            }
            for c in rules.house_cards.values()
        },
        "order_tokens": {
            t.id: {
                "type": t.type,
                "bonus": t.bonus,
                "star": t.star,
                **({"area_kinds": sorted(t.area_kinds)} if t.area_kinds else {}),
            }
            for t in rules.order_tokens.values()
        },
        "unit_types": {
            u.id: {
                "name": u.name,
                "domain": u.domain,
                "strength": u.strength,
                "vs_castle": u.vs_castle,
                "muster_cost": u.muster_cost,
            }
            for u in rules.unit_types.values()
        },
        "westeros_cards": {
            c.id: {"name": c.name, "deck": c.deck, "text": c.text, "wildling_icon": c.wildling_icon}
            for c in rules.westeros_cards.values()
        },
        "wildling_cards": {
            c.id: {"name": c.name, "text": c.text} for c in rules.wildling_cards.values()
        },
        "supply_table": [list(row) for row in rules.setups[len(seats)].supply_table]
        if len(seats) in rules.setups
        else [],
        "star_limits": {n: list(s.star_limits) for n, s in sorted(rules.setups.items())},
        "option_labels": option_labels(rules),
        "seats": seats,
        "plugins": [name for name, _ in rules.plugins],
    }


def board_context(session: GameSession, house: str, loaded: LoadedPlugins) -> dict[str, Any]:
    """The context of ``board.html``: the game (its name), the seat, who plays every seat
    (``seat_list``: ``GameLister.seats``), the inline map and the content."""
    state = session.state
    seats = {h: ("ai" if session.is_ai(h) else "human") for h in session.players}
    return {
        "game_id": session.game_id,
        "house": house,
        "house_name": state.rules.houses[house].name,
        "ws_url": f"/ws/games/{session.game_id}/seats/{house}",
        "map_svg": Markup(map_svg(loaded, state.rules)),  # our own generated file, trusted
        "content": {
            **content_of(state.rules, seats),
            "scripts": loaded.scripts_for(state.rules, state.options),
            "reference_cards": {
                c.id: {"name": c.name, "deck": c.deck, "text": c.text}
                for c in loaded.reference_cards_for(state.rules, state.options)
            },
        },
        "seats": seats,
        "seat_list": GameLister(state.rules, loaded).seats(session.info),
        "game_name": session.info.setup.name,
        "replay_url": f"/games/{session.game_id}/replay/{house}",
        "export_url": f"/games/{session.game_id}/export" if session.over else None,
    }


def replay_context(
    info: GameInfo, rules: Ruleset, viewer: str | None, loaded: LoadedPlugins
) -> dict[str, Any]:
    """The context of ``replay.html``: the game, whose view (None: the full view of a finished
    game), the inline map, the content and where the steps come from."""
    seats = {s.house: ("human" if s.kind == HUMAN else "ai") for s in info.setup.seats}
    house = seat_house(info)
    return {
        "game_id": info.id,
        "house": viewer or "",
        "full": viewer is None,
        "house_name": rules.houses[viewer].name if viewer in rules.houses else "",
        "map_svg": Markup(map_svg(loaded, rules)),  # our own generated file, trusted markup
        "content": {
            **content_of(rules, seats),
            "scripts": loaded.scripts_for(rules, info.setup.options),
        },
        "seats": seats,
        "game_name": info.setup.name,
        "steps_url": f"/games/{info.id}/replay/step/",
        "board_url": f"/games/{info.id}/play/{viewer or house}",
        "export_url": f"/games/{info.id}/export" if info.winner is not None else None,
    }
