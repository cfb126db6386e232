"""Fuzzing the model-file pipeline: generated model files — valid ones and mutated ones —
go through loading, ``validate``'s checks and compilation to the IR.  Every outcome must
be a model or a :class:`ModelError` (its subclasses included) — never another exception,
never longer than a few seconds (a budget turns a hang into a failure here)."""

from __future__ import annotations

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from porthamiltonian.bounded import bounded
from porthamiltonian.errors import ModelError

NAMES = ["u", "f", "C1", "L1", "R1", "j", "k", "La", "x", "T1", "ｋ", "q", "t", "pi"]
#: values a user (or an attacker) might write: numbers, edge values, odd expressions
VALUES = [1, 0, -1, 2.5, 1e-300, 1e308, "1e400", "k", "2*k", "1/k", "1/0", "zoo", "nan",
          "oo", "k**999", "(k**999)**999", "log(-1)", "exp(1000)", "sin(", "__import__('os')",
          "floor(k)", "ｋ", "t", "x.y", "", None, [1, 2], {"a": 1}, True, "k*" * 300 + "k"]
TYPES = ["Se", "Sf", "C", "I", "R", "TF", "GY", "0", "1", "MTF", "X"]
FIELD = {"C": "c", "I": "i", "R": "r", "TF": "ratio", "GY": "ratio", "MTF": "ratio"}


GOOD = [1, 2.5, 0.1, "k", "2*k", "1/k"]


@st.composite
def bond_graph_models(draw):
    """``(document, hostile)``: a bond-graph model file as plain data — a source on a
    junction with a resistor and storages, valid with values from :data:`GOOD` — or,
    ``hostile``, with values from :data:`VALUES`, odd names, dims, bonds and a mutated
    structure."""
    hostile = draw(st.integers(0, 3)) > 0  # a quarter of the models stay valid
    value = st.sampled_from(VALUES) if hostile else st.sampled_from(GOOD)
    source = draw(st.sampled_from(["Se", "Sf"]))
    junction = {"Se": "1", "Sf": "0"}[source]  # the source sets what the junction shares
    elements = [{"name": "u", "type": source}, {"name": "j", "type": junction}]
    # a resistor first: it takes whichever causality the storages leave it
    kinds = ["R"] + draw(st.lists(st.sampled_from(["C", "I", "R"]), max_size=3))
    for n, kind in enumerate(kinds):
        el = {"name": f"{kind}{n}", "type": kind, FIELD[kind]: draw(value)}
        if hostile and kind in ("C", "I") and draw(st.integers(0, 4)) == 0:
            el["hamiltonian"] = draw(st.sampled_from(VALUES))
        elements.append(el)
    bonds = [["u", "j"]] + [["j", e["name"]] for e in elements[2:]]
    number = st.sampled_from(VALUES if hostile else [1, 2.5, 0.1])
    doc = {"name": "m", "parameters": {"k": draw(number)},
           "bondgraph": {"elements": elements, "bonds": bonds}}
    if draw(st.booleans()):
        doc["simulate"] = {"t_end": draw(st.sampled_from([1, 0.1] + ([0, -1, "1e400", "k", None]
                                                                  if hostile else []))),
                           "dt": draw(st.sampled_from([0.01] + ([0, 1e-300, None, "x"]
                                                               if hostile else []))),
                           "method": draw(st.sampled_from(["auto", "midpoint"] + (
                               ["nope", 3] if hostile else []))),
                           "initial": {}}
        # of several inductors on a 1-junction (capacitors on a 0-junction) one is kept,
        # the others merged into it, and an initial value of a merged one is refused:
        # the valid models give values to the others only
        kept = {"1": "C", "0": "I"}[junction]
        storages = [e["name"] for e in elements if e["type"] == kept]
        if hostile or storages:
            names = [e["name"] for e in elements] if hostile else storages
            doc["simulate"]["initial"] = {draw(st.sampled_from(names)): draw(number)}
    if not hostile:
        return doc, False
    mutation = draw(st.integers(0, 7))
    if mutation == 1:
        del doc["bondgraph"]["bonds"]
    elif mutation == 2:
        doc["bondgraph"]["elements"] = draw(st.sampled_from(VALUES))
    elif mutation == 3:
        doc["extra"] = draw(st.sampled_from(VALUES))
    elif mutation == 4:
        doc["bondgraph"]["bonds"].append([draw(st.sampled_from(NAMES)),
                                          draw(st.sampled_from(NAMES))])
    elif mutation == 5:
        el = draw(st.sampled_from(elements))
        el["name"] = draw(st.sampled_from(NAMES))
    elif mutation == 6:
        draw(st.sampled_from(elements))["dim"] = draw(
            st.sampled_from([0, 2, -1, 100000, "2", 1.5]))  # 100000: over the limit
    elif mutation == 7:
        draw(st.sampled_from(elements))["type"] = draw(st.sampled_from(TYPES))
    return doc, True


def _outcome(text: str) -> str:
    """Load, validate and compile ``text``; ``"model"`` or ``"refused"``."""
    from porthamiltonian.cli.validate import _build_problems
    from porthamiltonian.io import load_model

    try:
        with bounded("one fuzzed model", 30):
            model = load_model(text)
            problems, _, _ = _build_problems(model)
    except ModelError:
        return "refused"
    return "refused" if problems else "model"


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(bond_graph_models())
def test_generated_models_give_a_model_or_a_model_error(case):
    doc, hostile = case
    text = yaml.safe_dump(doc, allow_unicode=True)
    outcome = _outcome(text)
    assert outcome in ("model", "refused")
    if not hostile:
        assert outcome == "model", text  # a valid circuit is accepted


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("{}[]:,-&*!|>'\"#% \n\tabcxyz019.eE+")),
               max_size=200))
def test_arbitrary_text_gives_a_model_or_a_model_error(text):
    assert _outcome("name: x\n" + text) in ("model", "refused")
