"""The id-forms probe: the BOLA probe's world (tests/api/bola.py), with every integer id written in
the spellings a Python or marshmallow parser reads as the same integer ("+2", " 2", "02", "２", "٢",
"1_0", 2.0, "2.0", true) instead of its canonical form.

A check that reads ids one way and a schema that reads them another let such an id past the object
check (issue 44: `deviceId=%2B2` read another site's certificate). Whatever the spelling, a call must
never answer with the object nor change the database: the judge is the BOLA probe's (a refusal, a 422
or an empty answer pass; A's markers, accepted data, a 5xx or a changed fingerprint are leaks).
Hypothesis chooses the spelling, the slot and the caller of each call.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import quote

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api import bola

# Digits of other scripts that int() reads: full width, Arabic-Indic, Devanagari, Bengali.
DIGIT_ZEROS = ("\uff10", "\u0660", "\u0966", "\u09e6")
SPACES = (" ", "\t", "\n", "\u00a0", "\u3000")


def _in_digits(value: int, zero: str) -> str:
    return "".join(chr(ord(zero) + int(digit)) for digit in str(value))


def odd_forms(value: int) -> st.SearchStrategy:
    """Spellings of `value` that int(), float() or marshmallow's Integer read as `value`."""
    text = str(value)
    forms = [
        st.just("+" + text),
        st.builds(lambda n: "0" * n + text, st.integers(1, 3)),
        st.builds(lambda s: s + text, st.sampled_from(SPACES)),
        st.builds(lambda s: text + s, st.sampled_from(SPACES)),
        st.builds(lambda z: _in_digits(value, z), st.sampled_from(DIGIT_ZEROS)),
        st.just(text + ".0"),
        st.just(float(value)),
        st.just("+0" + text),
    ]
    if len(text) > 1:
        forms.append(st.integers(1, len(text) - 1).map(lambda i: text[:i] + "_" + text[i:]))
    if value == 1:
        forms.append(st.just(True))
    return st.one_of(forms)


def integer_slot(openapi: bola.OpenApi, operation: bola.Operation, slot: tuple[str, str]) -> bool:
    """An id slot that takes an integer (or a list of them): GUIDs and external ids are text."""
    where, name = slot
    if where == "body":
        _, body = openapi.body_schema(operation.spec)
        schema = openapi.resolve((body or {}).get("properties", {}).get(name, {}))
    else:
        item = openapi.document["paths"][operation.path]
        params = [p for p in openapi.parameters(item, operation.spec) if (p["in"], p["name"]) == slot]
        schema = openapi.resolve(params[0].get("schema", {})) if params else {}
    if schema.get("type") == "array":
        schema = openapi.resolve(schema.get("items", {}))
    return schema.get("type") == "integer"


@dataclass
class Outcome:
    operation: str
    as_who: str
    slot: str
    form: str
    status: int
    code: object  # the body's code (a refusal may answer HTTP 200 with 4030)
    verdict: str
    reason: str


def encode(where: str, value):
    """The odd form as it travels: quoted into a path segment, text in a query, as is in JSON."""
    if where == "path":
        return quote(str(value), safe="")
    if where == "query":
        return value if isinstance(value, str) else json.dumps(value)
    return value


def probe(app, world, callers: dict, *, only: str = "", examples: int = 3) -> tuple[list[Outcome], list[str]]:
    """Each operation with an integer id (or those whose key contains `only`), called `examples` times,
    each time as a caller, with one slot in an odd spelling of one of A's ids (the others canonical).
    `callers`: name -> (test client of the caller's site, headers)."""
    openapi = world["openapi"]
    outcomes: list[Outcome] = []
    probed: list[str] = []
    state = {}
    with app.app_context():
        state["before"] = bola.fingerprint()

    def probe_operation(operation, slots, candidates, template):
        @settings(
            max_examples=examples,
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(data=st.data())
        def call(data):
            who = data.draw(st.sampled_from(sorted(callers)), label="caller")
            odd_slot = data.draw(st.sampled_from(slots), label="slot")
            values = {slot: data.draw(st.sampled_from(candidates[slot])) for slot in slots}
            form = data.draw(odd_forms(values[odd_slot]), label="form")
            values[odd_slot] = encode(odd_slot[0], form)
            url, body, extra = bola.build_request(openapi, operation, template, values)
            client, headers = callers[who]
            response = getattr(client, operation.method)(url, json=body, headers={**headers, **extra})
            verdict, reason = bola.judge(operation, response, world["markers"])
            with app.app_context():
                after = bola.fingerprint()
            if after != state["before"]:
                changed = sorted(t for t in after if after[t] != state["before"].get(t))
                verdict, reason = "leak", f"database changed: {changed}"
            state["before"] = after
            outcomes.append(
                Outcome(
                    operation.key,
                    who,
                    "/".join(odd_slot),
                    repr(form),
                    response.status_code,
                    (response.get_json(silent=True) or {}).get("code"),
                    verdict,
                    reason,
                )
            )

        return call

    for operation in openapi.operations:
        if only not in operation.key:
            continue
        slots = [slot for slot in operation.id_slots if integer_slot(openapi, operation, slot)]
        candidates = {slot: bola.candidates(operation, slot[1], world["ids"]) for slot in slots}
        slots = [slot for slot in slots if candidates[slot]]
        if not slots:
            continue
        probed.append(operation.key)
        template = world["templates"].get(operation.key)

        probe_operation(operation, slots, candidates, template)()
    return outcomes, probed
