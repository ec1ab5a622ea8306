"""Every command's real output validates against schema/ (JSON Schema draft 2020-12).

The commands run on built-in examples with the aot_eager backend and tiny budgets, so the
whole file takes well under a minute on two cores. Documents saved from real runs in
tests/e2e/fixtures/html_*.json (a sweep is slow to produce) and tests/e2e/fixtures/explain/*.json
are validated too.
"""
import json

import jsonschema
import pytest
from referencing import Registry, Resource

from tct_run import FIXTURES, ROOT, run_tct

SCHEMA_DIR = ROOT / "schema"
FAST_BENCH = ["--backend", "aot_eager", "--budget", "0.3", "--warmup", "4", "--eager-warmup", "2",
              "--min-blocks", "2", "--no-compile-time", "--quiet"]
FAST_AUDIT = ["--backend", "aot_eager", "--budget", "0.3", "--warmup", "4", "--no-compile-time", "--quiet",
              "--no-allocator-compare"]


def _registry():
    resources = []
    for path in sorted(SCHEMA_DIR.glob("*.schema.json")):
        schema = json.loads(path.read_text())
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


REGISTRY = _registry()
ROOT_SCHEMA = json.loads((SCHEMA_DIR / "tct.schema.json").read_text())


def validate(doc):
    validator = jsonschema.Draft202012Validator(
        ROOT_SCHEMA, registry=REGISTRY, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(
        f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message[:300]}" for e in errors[:15])


def run_json(*args, ok=(0,)):
    r = run_tct(*args, "--json")
    assert r.rc in ok, r
    doc = r.json()
    assert doc["exit_code"] == r.rc
    return doc


@pytest.fixture(scope="module")
def explain_doc():
    return run_json("explain", "builtin:graph_breaks", "--quiet")


def test_schema_files_are_valid_draft_2020_12():
    for path in sorted(SCHEMA_DIR.glob("*.schema.json")):
        schema = json.loads(path.read_text())
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema", path
        jsonschema.Draft202012Validator.check_schema(schema)
    # Every section the envelope names has its file.
    for section in ("probe", "bench", "explain", "diff", "expect", "audit", "suite", "compare", "run"):
        assert ROOT_SCHEMA["properties"][section]["$ref"] == f"{section}.schema.json"


def test_schema_rejects_a_wrong_document():
    doc = run_json("probe", "--quiet")
    bad = json.loads(json.dumps(doc))
    bad["schema"] = "tct/2"
    with pytest.raises(AssertionError):
        validate(bad)
    bad = json.loads(json.dumps(doc))
    del bad["probe"]["verdict"]
    bad["probe"]["reasons"] = [{"severity": "fatal"}]
    with pytest.raises(AssertionError):
        validate(bad)
    validate(doc)


def test_probe(tmp_path):
    validate(run_json("probe", "--quiet"))


def test_probe_failure_document():
    doc = run_json("probe", "--python", "/nonexistent/python", ok=(2,))
    assert doc["error"]["kind"] == "usage"
    validate(doc)


def test_bench_with_raw_samples():
    doc = run_json("bench", "builtin:tiny_ops", *FAST_BENCH, "--raw")
    row = doc["bench"]["rows"][0]
    assert row["status"] == "ok" and row["samples"]["eager"]
    validate(doc)


def test_bench_failure_keeps_a_valid_partial_document():
    doc = run_json("bench", "builtin:no_such_example", *FAST_BENCH, ok=(2,))
    assert doc["error"] is not None
    validate(doc)


def test_bench_failed_row():
    # An unknown backend fails its row (or the whole run, as bad usage); either way valid.
    r = run_tct("bench", "builtin:tiny_ops", *FAST_BENCH[2:], "--backend", "aot_eager,no_such_backend", "--json")
    assert r.rc in (2, 3), r
    validate(r.json())


def test_explain(explain_doc):
    assert explain_doc["explain"]["graph_break_count"] > 0
    validate(explain_doc)


def test_diff(explain_doc, tmp_path):
    before = tmp_path / "before.json"
    before.write_text(json.dumps(explain_doc))
    after = FIXTURES / "html_explain.json"
    doc = run_json("diff", str(before), str(after), ok=(0, 1))
    validate(doc)


def test_expect():
    doc = run_json("expect", "builtin:tiny_ops", "--quiet")
    assert doc["expect"]["class"]
    validate(doc)


def test_audit(tmp_path):
    doc = run_json("audit", "builtin:tiny_ops", *FAST_AUDIT, "--trace", tmp_path / "traces", ok=(0, 1))
    assert [s["name"] for s in doc["audit"]["steps"]] == ["probe", "explain", "expect", "bench"]
    for section in ("probe", "explain", "expect", "bench"):
        assert section in doc, section
    validate(doc)
    # --trace: one folder per step, each a log `tct trace` reads
    assert doc["expect"]["compiled_run"]["graph_count"] == doc["explain"]["graph_count"] >= 1
    for step in ("explain", "bench"):
        trace = run_json("trace", tmp_path / "traces" / step)
        (rank,) = trace["trace"]["ranks"]
        assert rank["graph_count"] >= 1 and trace["trace"]["divergence"] == [], step


def test_audit_failure_keeps_a_valid_partial_document():
    doc = run_json("audit", "builtin:no_such_example", *FAST_AUDIT, ok=(2,))
    steps = {s["name"]: s for s in doc["audit"]["steps"]}
    assert steps["probe"]["status"] == "ok" and steps["explain"]["status"] == "failed"
    validate(doc)


def test_saved_real_documents():
    # explain/: this version's explain documents, which the C++ round-trip test reads back.
    paths = sorted(FIXTURES.glob("html_*.json")) + sorted((FIXTURES / "explain").glob("*.json"))
    assert len(paths) > 5
    for path in paths:
        validate(json.loads(path.read_text()))
