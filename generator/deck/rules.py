"""The rules checker: declarative composition rules from the deck file, run on the model.

Each rule in a deck's ``rules:`` list names one kind of check. The kinds::

    total:     {exact: 152}                        how many cards in all
    count:     {where: {type: monster}, exact: 99} how many cards match a selector
               {per: colour, exact: 10}            ... in each group: every colour has 10
               {per: [colour, value], exact: {value: {1: 3, 2: 2, 5: 1}}}
                                                   ... the amount read from a table by value
    copies:    {where: {type: monster}, exact: 9}  copies of each distinct matching card
               {per: value, exact: {value: {1: 3, 5: 1}}}   ... by the card's group
    unique:    {fields: [name]}                    no two cards share these field values
    faces:     {field: symbol, map: {sun: moon}}   how a card's back relates to its front
               {field: group, relation: different}
    backed_by: {cards: {type: monster}, field: monster_type,
                by: {type: treasure}, by_field: summons}
                                                   every value among some cards is
                                                   matched by another set of cards
    setup:     {players: [1, 4], needs: [{where: {star: true}, count: players}]}
                                                   each player count's deal has enough cards
    expr:      "total % 4 == 0"                    a sandboxed Jinja2 expression

Amounts are a number (exactly) or a mapping with ``exact``, ``min`` and ``max``, each 0 or
more and together met by some count: ``{min: 10, max: 5}`` is a malformed rule, not a broken one.
With ``per:``, a ``count`` applies its amount to every group of cards sharing the
values of those fields: the values the rule's ``where:`` picks for a field, else the
field's declared choices (or its whole min-max range), else the values the cards hold,
so a colour with no cards at all is a group of 0, reported by name.
``scope: decklists`` runs a rule on each of the deck's decklists instead of the
pool, and ``decklist: first-game`` on that one decklist alone (a setup rule for
the first game need not hold for the starting decks). Every rule may carry a
``message`` saying, in the game's words, what it protects.

The checker returns findings; it never prints or exits. The CLI decides that.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from jinja2 import TemplateError

from generator.deck.model import Card, Deck, RuleSpec
from generator.deck.selectors import Selector, field_value, known_fields, parse_selector
from generator.errors import EXIT_RULES, InputError, Position
from generator.expressions import compile_expression, evaluate
from generator.findings import Finding, findings_from

Pool = list[tuple[Card, int]]  # the cards a rule looks at, with their copy counts
Violation = tuple[str, str, list[str]]  # what a rule expected, what it found, and the card ids involved
Check = Callable[[Deck, RuleSpec, Pool], Iterator[Violation]]

MAX_SETUP_PLAYERS = 100
"""A setup rule tries every player count in its range; no table game seats more."""


def rule_finding(rule: RuleSpec, expected: str, found: str, cards: tuple[str, ...] = (),
                 decklist: str | None = None) -> Finding:
    """One broken rule: ``path:line: rule (message): expected ..., found ... [cards: ...]``."""
    where = f"decklist '{decklist}': " if decklist else ""
    involved = f" [cards: {', '.join(cards)}]" if cards else ""
    return Finding(
        kind="rule",
        message=f"{where}{rule.label}: expected {expected}, found {found}{involved}",
        position=Position(rule.position.path, rule.position.line),  # a rule is a line, not a column
        exit_code=EXIT_RULES,
        card=cards[0] if len(cards) == 1 else None,  # a failure that concerns one card names it
        details={"rule": rule.kind, "rule_message": rule.message, "decklist": decklist,
                 "expected": expected, "found": found, "cards": list(cards)},
    )


@dataclass(repr=False, eq=False)
class Report:
    """The outcome of checking one deck: broken rules, and rules too malformed to run."""

    rules_checked: int
    findings: tuple[Finding, ...]

    @property
    def passed(self) -> bool:
        return not self.findings


def check_deck(deck: Deck) -> Report:
    """Run every rule of ``deck``. A malformed rule is a finding (exit code 2) and the
    other rules still run, so one pass reports every rule that needs fixing.

    A translated deck is judged on the values its deck file gives (:meth:`Deck.as_written`):
    the rules were written for those, and a translation is the same game."""
    deck = deck.as_written()
    findings: list[Finding] = []
    checked = 0
    for rule in deck.rules:
        try:
            outcome = _run_rule(deck, rule)
        except InputError as error:
            findings.extend(findings_from(error))
            continue
        checked += outcome[0]
        findings.extend(outcome[1])
    return Report(rules_checked=checked, findings=tuple(findings))


def rule_problems(deck: Deck) -> list[Finding]:
    """What is wrong with ``deck``'s rules as written, without running them on its cards: for
    a deck whose file has other problems (``deck`` is then the part of it that could be read,
    :class:`~generator.deck.model.DeckProblems`), so one run reports its bad rules beside its
    bad cards.

    Each rule is run on no cards, which parses its settings and checks its selectors and the
    fields it names against the deck's (what it finds on no cards means nothing and is
    dropped). An expression is only compiled: what it gives on cards that are not all there
    would be no verdict on it. Whether a rule's decklists exist is for the model to say."""
    findings: list[Finding] = []
    for rule in deck.rules:
        check = _CHECKS.get(rule.kind)
        try:
            if check is None:
                raise _unknown_kind(rule)
            if rule.kind == "expr":
                _compile_rule_expression(rule)
            else:
                for _ in check(deck, rule, []):
                    pass
        except InputError as error:
            findings.extend(findings_from(error))
    return findings


def _unknown_kind(rule: RuleSpec) -> InputError:
    return InputError(f"unknown rule kind '{rule.kind}'; expected one of: {', '.join(sorted(_CHECKS))}",
                      rule.position, field=rule.kind)


def _run_rule(deck: Deck, rule: RuleSpec) -> tuple[int, list[Finding]]:
    """How many pools the rule ran on, and what it found (all or nothing, so a rule
    that turns out malformed half-way reports only that)."""
    check = _CHECKS.get(rule.kind)
    if check is None:
        raise _unknown_kind(rule)
    checked = 0
    findings = []
    for decklist, pool in _pools(deck, rule):
        checked += 1
        for expected, found, cards in check(deck, rule, pool):
            findings.append(rule_finding(rule, expected, found, tuple(cards), decklist))
    return checked, findings


def _pools(deck: Deck, rule: RuleSpec) -> list[tuple[str | None, Pool]]:
    """The cards the rule looks at: the pool, every decklist, or the one it names."""
    if rule.scope == "deck":
        return [(None, [(card, card.count) for card in deck.cards])]
    decklists = deck.decklists if rule.decklist is None else \
        [decklist for decklist in deck.decklists if decklist.id == rule.decklist]
    if not decklists:
        if rule.decklist is not None:  # the deck model refuses such a rule; a deck made otherwise may not
            raise InputError(f"no decklist '{rule.decklist}'", rule.position, field="decklist")
        raise InputError("rule applies to decklists, but the deck has none", rule.position, field="scope")
    return [(decklist.id, [(deck.card(card_id), n) for card_id, n in decklist.counts.items() if n])
            for decklist in decklists]


# --- amounts -------------------------------------------------------------------------

@dataclass(repr=False, eq=False)
class Amount:
    """How many a rule allows: exactly, at least and/or at most."""

    exact: int | None = None
    min: int | None = None
    max: int | None = None

    def allows(self, value: int) -> bool:
        if self.exact is not None and value != self.exact:
            return False
        if self.min is not None and value < self.min:
            return False
        return self.max is None or value <= self.max

    def describe(self) -> str:
        if self.exact is not None:
            return f"exactly {self.exact}"
        if self.min is not None and self.max is not None:
            return f"{self.min} to {self.max}"
        if self.min is not None:
            return f"at least {self.min}"
        return f"at most {self.max}"

    def of(self, singular: str, plural: str) -> str:
        """The amount with its noun: "exactly 1 copy", "at least 2 copies", "0 to 1 copies"."""
        single = self.exact == 1 if self.exact is not None else (self.min, self.max) in ((1, None), (None, 1))
        return f"{self.describe()} {singular if single else plural}"


AMOUNT_KEYS = ("exact", "min", "max")


def _amount(params: Any, rule: RuleSpec, allowed_extra: Iterable[str] = frozenset()) -> Amount:
    if isinstance(params, int) and not isinstance(params, bool):
        if params < 0:
            raise _malformed(rule, f"must be 0 or more, found {params}")
        return Amount(exact=params)
    if not isinstance(params, dict):
        raise _malformed(rule, "expects a number or a mapping with exact, min or max")
    _known(params, rule, set(AMOUNT_KEYS) | set(allowed_extra))
    values: dict[str, int | None] = {}
    for key in AMOUNT_KEYS:
        value = params.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise _malformed(rule, f"'{key}' must be a whole number")
        values[key] = value
    if all(value is None for value in values.values()):
        raise _malformed(rule, "needs at least one of exact, min or max")
    return _possible(rule, Amount(**values))


def _possible(rule: RuleSpec, amount: Amount, among: str = "") -> Amount:
    """``amount``, refused unless some number of cards meets it. A negative amount, a max below
    its min or an exact outside them can never hold, and would be reported as a broken rule
    (``expected 10 to 5 cards``) whatever the deck held, when it is the rule that needs fixing.
    ``among`` says which group the amount is for (`` for value=1``), read from a table."""
    for key in AMOUNT_KEYS:
        value = getattr(amount, key)
        if value is not None and value < 0:
            raise _malformed(rule, f"'{key}' must be 0 or more, found {value}{among}")
    if amount.min is not None and amount.max is not None and amount.max < amount.min:
        raise _malformed(rule, f"'max' ({amount.max}) is below 'min' ({amount.min}){among}")
    if amount.exact is not None and amount.min is not None and amount.exact < amount.min:
        raise _malformed(rule, f"'exact' ({amount.exact}) is below 'min' ({amount.min}){among}")
    if amount.exact is not None and amount.max is not None and amount.exact > amount.max:
        raise _malformed(rule, f"'exact' ({amount.exact}) is above 'max' ({amount.max}){among}")
    return amount


MAX_GROUPS = 10_000
"""Groups one ``per:`` rule checks (the product of its fields' values). Ten thousand is far
past any real deck (Hanabi has 25); a product beyond it is a rule over a free-text field,
or over an int field's min..max range written wider than any deck holds, whose report no
one could read."""

Group = tuple[Any, ...]  # one value of each of a per: rule's fields, in its order


def _per_fields(deck: Deck, rule: RuleSpec, params: dict[Any, Any]) -> list[str]:
    """``per: colour`` or ``per: [colour, value]``: the fields a rule groups cards by."""
    per = params.get("per")
    if per is None:
        return []
    names = [per] if isinstance(per, str) else per
    if not (isinstance(names, list) and names and all(isinstance(name, str) for name in names)):
        raise _malformed(rule, "'per' names a field or a list of fields")
    if len(set(names)) != len(names):
        raise _malformed(rule, "'per' names a field twice")
    for name in names:
        _field_name(deck, rule, name, setting="per")
    return names


def _group_values(deck: Deck, rule: RuleSpec, name: str, cards: list[Card], selector: Selector) -> list[Any]:
    """The values a per: field groups by: those the rule's ``where:`` picks for it, else its
    declared choices (yes and no for a yes/no field, every whole number of a bounded int
    field), then any other value the cards hold. A declared value no card has is still a
    group, with 0 cards, so a range too wide to check is refused (before it is listed), not
    narrowed to the values the cards hold: that would pass every number no card has."""
    picked = dict(selector.wanted).get(name)
    if picked is not None:
        return list(dict.fromkeys(_hashable(value) for value in picked))
    spec = deck.fields.get(name.removeprefix("back."))
    declared: list[Any] = []
    if spec is not None and spec.type == "choice":
        declared = list(spec.choices)
    elif spec is not None and spec.type == "bool":
        declared = [False, True]
    elif spec is not None and spec.type == "int" and spec.min is not None and spec.max is not None:
        low, high = int(spec.min), int(spec.max)
        if high - low + 1 > MAX_GROUPS:
            raise _malformed(rule, f"'per' makes {high - low + 1:,} groups of {name}, one for each whole number "
                                   f"from {low:,} to {high:,}; at most {MAX_GROUPS:,} can be checked")
        declared = list(range(low, high + 1))
    values = {_hashable(value): None for value in declared}
    for card in cards:
        values.setdefault(_hashable(field_value(card, name, deck.shared_back)), None)
    return list(values)


def _groups(deck: Deck, rule: RuleSpec, per: list[str], selector: Selector) -> list[Group]:
    """Every combination of the per: fields' values, in declared order."""
    cards = [card for card in deck.cards if selector.matches(card)]
    columns = [_group_values(deck, rule, name, cards, selector) for name in per]
    size = math.prod(len(column) for column in columns)
    if size > MAX_GROUPS:
        raise _malformed(rule, f"'per' makes {size:,} groups; at most {MAX_GROUPS:,} can be checked")
    return list(itertools.product(*columns))


def _group_key(card: Card, per: list[str], shared_back: dict[str, Any] | None) -> Group:
    return tuple(_hashable(field_value(card, name, shared_back)) for name in per)


def _group_label(per: list[str], group: Group) -> str:
    """``colour=blue value=5``."""
    return " ".join(f"{name}={_value_text(value)}" for name, value in zip(per, group, strict=True))


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "none" if value is None else str(value)


def _amounts(params: Any, rule: RuleSpec, per: list[str], allowed_extra: Iterable[str]
             ) -> Callable[[Group], Amount]:
    """The amount for each group. With ``per``, each of exact/min/max may be a number or a
    table by one of the per: fields, ``exact: {value: {1: 3, 2: 2, 5: 1}}``."""
    if not per:
        amount = _amount(params, rule, allowed_extra)
        return lambda group: amount
    _known(params, rule, set(AMOUNT_KEYS) | set(allowed_extra) | {"per"})
    fixed: dict[str, int | None] = {}
    tables: dict[str, tuple[int, dict[Any, int]]] = {}
    for key in AMOUNT_KEYS:
        value = params.get(key)
        if isinstance(value, dict):
            tables[key] = _amount_table(rule, key, value, per)
        elif value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise _malformed(rule, f"'{key}' must be a whole number, or a table by one of the 'per' "
                                   f"fields such as {{{per[-1]}: {{...: 1}}}}")
        else:
            fixed[key] = value
    if all(value is None for value in fixed.values()) and not tables:
        raise _malformed(rule, "needs at least one of exact, min or max")
    _possible(rule, Amount(**fixed))  # refused before any group is looked at

    def amount_for(group: Group) -> Amount:
        values = dict(fixed)
        for key, (index, table) in tables.items():
            value = group[index]
            if value in table:
                values[key] = table[value]
            elif str(value) in table:  # a table written with quoted keys
                values[key] = table[str(value)]
            else:
                raise _malformed(rule, f"'{key}' gives no amount for {per[index]}={_value_text(value)}")
        amount = Amount(**values)
        return _possible(rule, amount, f" for {_group_label(per, group)}") if tables else amount

    return amount_for


def _amount_table(rule: RuleSpec, key: str, raw: dict[Any, Any], per: list[str]) -> tuple[int, dict[Any, int]]:
    """``{value: {1: 3, 2: 2}}`` -> (index of 'value' in per, {1: 3, 2: 2})."""
    if len(raw) != 1 or next(iter(raw)) not in per:
        raise _malformed(rule, f"'{key}' as a table names one of the 'per' fields ({', '.join(per)}) "
                               f"with an amount for each of its values")
    name, table = next(iter(raw.items()))
    if not isinstance(table, dict) or not table or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in table.values()):
        raise _malformed(rule, f"'{key}' for {name} must map each value to a whole number")
    return per.index(name), {_hashable(value): amount for value, amount in table.items()}


def _known(params: dict[Any, Any], rule: RuleSpec, allowed: set[str]) -> None:
    for key in params:
        if key not in allowed:
            raise _malformed(rule, f"unknown setting '{key}'; expected one of: {', '.join(sorted(allowed))}")


def _malformed(rule: RuleSpec, what: str) -> InputError:
    return InputError(f"rule '{rule.kind}' {what}", rule.position, field=rule.kind)


def _ids(pool: Pool, limit: int = 12) -> list[str]:
    ids = [card.id for card, _ in pool]
    return ids if len(ids) <= limit else ids[:limit] + [f"... {len(ids) - limit} more"]


# --- the checks ----------------------------------------------------------------------
# Each check takes (deck, rule, pool) and yields (expected, found, card ids) per violation.

def _check_total(deck: Deck, rule: RuleSpec, pool: Pool) -> Iterator[Violation]:
    amount = _amount(rule.params, rule)
    total = sum(n for _, n in pool)
    if not amount.allows(total):
        yield amount.of("card", "cards"), f"{total}", []


def _matching(selector: Selector) -> str:
    """" matching kind=wild" for a rule with a where: filter; nothing when it counts every card."""
    return f" matching {selector.describe()}" if selector.wanted else ""


def _counting(deck: Deck, rule: RuleSpec) -> tuple[list[str], Callable[[Group], Amount], Selector]:
    """A count or copies rule's per: fields, its amount for each group and its where: selector."""
    params = rule.params if isinstance(rule.params, dict) else {}
    per = _per_fields(deck, rule, params)
    return per, _amounts(rule.params, rule, per, {"where"}), parse_selector(params.get("where"), deck, rule.position)


def _check_count(deck: Deck, rule: RuleSpec, pool: Pool) -> Iterator[Violation]:
    per, amount_for, selector = _counting(deck, rule)
    matching = [(card, n) for card, n in pool if selector.matches(card) and n]
    if not per:
        amount = amount_for(())
        found = sum(n for _, n in matching)
        if not amount.allows(found):
            yield f"{amount.of('card', 'cards')}{_matching(selector)}", f"{found}", _ids(matching)
        return
    members: dict[Group, list[tuple[Card, int]]] = {}
    for card, n in matching:
        members.setdefault(_group_key(card, per, deck.shared_back), []).append((card, n))
    # What the where: picks among the groups' own fields, each group's label already says.
    others = Selector(tuple((name, values) for name, values in selector.wanted if name not in per),
                      selector.shared_back)
    which = _matching(others)
    for group in _groups(deck, rule, per, selector):
        amount, found = amount_for(group), sum(n for _, n in members.get(group, ()))
        if not amount.allows(found):
            yield (f"{amount.describe()}{which} for {_group_label(per, group)}", f"{found}",
                   _ids(members.get(group, [])))


def _check_copies(deck: Deck, rule: RuleSpec, pool: Pool) -> Iterator[Violation]:
    per, amount_for, selector = _counting(deck, rule)
    wrong: dict[Group, list[tuple[Card, int]]] = {}
    for card, n in pool:
        if selector.matches(card):
            key = _group_key(card, per, deck.shared_back)
            if not amount_for(key).allows(n):
                wrong.setdefault(key, []).append((card, n))
    for group, cards in wrong.items():
        found = ", ".join(f"{card.id} x{n}" for card, n in cards[:12])
        among = f" for {_group_label(per, group)}" if per else ""
        yield (f"{amount_for(group).of('copy', 'copies')} of each card{_matching(selector)}{among}",
               found, _ids(cards))


def _field_list(deck: Deck, rule: RuleSpec, params: Any) -> list[str]:
    fields = params.get("fields") if isinstance(params, dict) else params
    if isinstance(fields, str):
        fields = [fields]
    if not (isinstance(fields, list) and fields and all(isinstance(f, str) for f in fields)):
        raise _malformed(rule, "needs 'fields': a field name or a list of field names")
    for name in fields:
        _field_name(deck, rule, name)
    return fields


def _field_name(deck: Deck, rule: RuleSpec, name: Any, setting: str = "field") -> str:
    """A field a rule compares; a typo here would otherwise compare blanks and pass."""
    if not isinstance(name, str):
        raise _malformed(rule, f"needs '{setting}': a field name")
    if name not in known_fields(deck):
        raise _malformed(rule, f"names unknown field '{name}'")
    return name


def _hashable(value: Any) -> Any:
    """Lists and mappings (possible in decks without declared fields) as comparable keys."""
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


def _check_unique(deck: Deck, rule: RuleSpec, pool: Pool) -> Iterator[Violation]:
    if isinstance(rule.params, dict):
        _known(rule.params, rule, {"fields", "where"})
        selector = parse_selector(rule.params.get("where"), deck, rule.position)
    else:
        selector = Selector(())
    fields = _field_list(deck, rule, rule.params)
    groups: dict[tuple[Any, ...], list[Card]] = {}
    for card, _ in pool:
        if not selector.matches(card):
            continue
        # Copies of one card share its values by design: uniqueness is between distinct cards.
        key = tuple(_hashable(field_value(card, name, deck.shared_back)) for name in fields)
        groups.setdefault(key, []).append(card)
    label = " + ".join(fields)
    for key, cards in groups.items():
        if len(cards) > 1:
            shown = ", ".join(map(str, key))
            yield f"each {label} on one card only", f"'{shown}' on {len(cards)} cards", [c.id for c in cards]


def _check_faces(deck: Deck, rule: RuleSpec, pool: Pool) -> Iterator[Violation]:
    params = rule.params
    if not isinstance(params, dict):
        raise _malformed(rule, "needs a mapping with 'field' and 'map' or 'relation'")
    _known(params, rule, {"field", "map", "relation", "where"})
    if not isinstance(params.get("field"), str):
        raise _malformed(rule, "needs 'field': the field compared between front and back")
    name = _field_name(deck, rule, params["field"])
    mapping, relation = params.get("map"), params.get("relation")
    if (mapping is None) == (relation is None):
        raise _malformed(rule, "needs either 'map' (front value: back value) or 'relation'")
    if relation is not None and relation not in ("same", "different"):
        raise _malformed(rule, "'relation' is 'same' or 'different'")
    if mapping is not None and not isinstance(mapping, dict):
        raise _malformed(rule, "'map' must be a mapping of front value: back value")
    selector = parse_selector(params.get("where"), deck, rule.position)
    wrong = []
    for card, _ in pool:
        if not selector.matches(card):
            continue
        front = card.fields.get(name)
        back = (card.face("back", deck.shared_back) or {}).get(name)
        if mapping is not None:
            ok = _hashable(front) in mapping and mapping[_hashable(front)] == back
        elif relation == "same":
            ok = front == back
        else:
            ok = front != back
        if not ok:
            wrong.append((card, front, back))
    if wrong:
        if mapping is not None:
            expected = "back " + name + " " + ", ".join(f"{k}->{v}" for k, v in mapping.items())
        else:
            expected = f"{relation} {name} on front and back"
        found = ", ".join(f"{card.id}: {front}/{back}" for card, front, back in wrong[:8])
        yield expected, found, [card.id for card, _, _ in wrong]


def _check_backed_by(deck: Deck, rule: RuleSpec, pool: Pool) -> Iterator[Violation]:
    params = rule.params
    if not isinstance(params, dict):
        raise _malformed(rule, "needs cards, field, by and by_field")
    _known(params, rule, {"cards", "field", "by", "by_field"})
    for key in ("field", "by_field"):
        _field_name(deck, rule, params.get(key), setting=key)
    needing = parse_selector(params.get("cards"), deck, rule.position)
    giving = parse_selector(params.get("by"), deck, rule.position)
    offered = {_hashable(field_value(card, params["by_field"], deck.shared_back))
               for card, n in pool if n and giving.matches(card)}
    missing: dict[Any, list[str]] = {}
    for card, n in pool:
        if n and needing.matches(card):
            value = _hashable(field_value(card, params["field"], deck.shared_back))
            if value not in offered:
                missing.setdefault(value, []).append(card.id)
    for value, ids in missing.items():
        yield (f"a card matching {giving.describe()} with {params['by_field']}={value}",
               "none", ids)


def _check_setup(deck: Deck, rule: RuleSpec, pool: Pool) -> Iterator[Violation]:
    params = rule.params
    if not isinstance(params, dict):
        raise _malformed(rule, "needs 'needs': a list of {where, count} entries")
    _known(params, rule, {"players", "needs"})
    low, high = deck.players
    players = params.get("players", [low, high])
    if not (isinstance(players, list) and len(players) == 2
            and all(isinstance(p, int) and not isinstance(p, bool) for p in players)
            and 1 <= players[0] <= players[1] <= MAX_SETUP_PLAYERS):
        raise _malformed(rule, f"'players' must be [min, max] with 1 <= min <= max <= {MAX_SETUP_PLAYERS}")
    needs = params.get("needs")
    if not isinstance(needs, list) or not needs:
        raise _malformed(rule, "needs 'needs': a list of {where, count} entries")
    for need in needs:
        if not isinstance(need, dict) or "count" not in need:
            raise _malformed(rule, "each entry of 'needs' has a 'count' expression")
        _known(need, rule, {"where", "count", "for"})
        selector = parse_selector(need.get("where"), deck, rule.position)
        available = sum(n for card, n in pool if selector.matches(card))
        for count in range(players[0], players[1] + 1):
            wanted = _evaluate(rule, str(need["count"]), {"players": count})
            if isinstance(wanted, bool) or not isinstance(wanted, int):
                raise _malformed(rule, f"count '{need['count']}' must give a whole number")
            if wanted < 0:  # would always be met, whatever the deck held
                raise _malformed(rule, f"count '{need['count']}' must give 0 or more, "
                                       f"found {wanted} with {count} players")
            if available < wanted:
                label = need.get("for") or selector.describe()
                yield (f"{wanted} cards for {label} with {count} players", f"{available}", [])


def _expression_of(rule: RuleSpec) -> str:
    """An expr rule's expression, refused unless it is a string and the rule says in a
    message what it checks."""
    if not isinstance(rule.params, str):
        raise _malformed(rule, "must be a Jinja2 expression in a string")
    if not rule.message:
        raise _malformed(rule, "needs a 'message' saying what it checks")
    return rule.params


def _compile_rule_expression(rule: RuleSpec) -> str:
    """An expr rule's expression (:func:`_expression_of`), refused too unless it compiles: a
    rule judged without being run (:func:`rule_problems`). A rule that runs is compiled as it
    is evaluated."""
    source = _expression_of(rule)
    try:
        compile_expression(source)
    except TemplateError as error:
        raise _malformed(rule, f"expression '{source}' failed: {error}") from None
    return source


def _check_expr(deck: Deck, rule: RuleSpec, pool: Pool) -> Iterator[Violation]:
    source = _expression_of(rule)
    # Every declared field is present (None when a card leaves it out), so a test such as
    # selectattr('cost', 'none') sees the gap instead of silently skipping the card.
    blank = dict.fromkeys(deck.fields)
    cards = [dict(blank, **card.fields, id=card.id, count=n, back=dict(blank, **(card.back or {})))
             for card, n in pool]
    context = {"cards": cards, "total": sum(n for _, n in pool), "deck": deck.info,
               "players": list(deck.players)}
    if not _evaluate(rule, source, context, truth=True):
        yield f"'{source}' to hold", "false", []


def _evaluate(rule: RuleSpec, source: str, context: dict[str, Any], truth: bool = False) -> Any:
    """The expression's value (or, with ``truth``, whether it holds), any failure
    becoming one positioned error. The truth test sits inside the ``try`` because
    taking it can itself run code of the sandbox that fails."""
    try:
        result = evaluate(source, context)
        return bool(result) if truth else result
    except (TemplateError, TypeError, ValueError, ZeroDivisionError, OverflowError) as error:
        raise _malformed(rule, f"expression '{source}' failed: {error}") from None


_CHECKS: dict[str, Check] = {
    "total": _check_total,
    "count": _check_count,
    "copies": _check_copies,
    "unique": _check_unique,
    "faces": _check_faces,
    "backed_by": _check_backed_by,
    "setup": _check_setup,
    "expr": _check_expr,
}
