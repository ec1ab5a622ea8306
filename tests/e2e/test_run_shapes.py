"""tct run counts the shapes a job's calls used, per input and dimension, and the recompiles
each dimension caused: held to the job's own tally of what it sent and torch's counters."""
import json
from collections import Counter

from tct_run import ROOT
from test_run import only_site, run_doc

JOB = ROOT / "tests" / "e2e" / "jobs" / "ragged_batches.py"


def test_shapes_match_what_the_job_sent_and_torchs_recompiles(tmp_path):
    from tct_run import PYTHON

    oracle = tmp_path / "sent.json"
    r, doc = run_doc(tmp_path, PYTHON, JOB, oracle)
    truth = json.loads(oracle.read_text())
    site = only_site(doc)
    use = site["shape_use"]
    sent = Counter(truth["sent"])
    # 30 calls: under the bootstrap's 256, past which it counts 1 call in 64 at random gaps.
    assert (use["all_calls"], use["one_in"]) == (256, 64)
    assert use["calls"] == sum(sent.values()) == site["calls"]
    assert use["shapes"] == len(sent) and use["other_calls"] == 0
    # Per dimension: the sizes and the calls at each, as the job counted what it sent.
    batches, contexts = Counter(), Counter()
    for key, n in sent.items():
        b, c = map(int, key.split("x"))
        batches[b] += n
        contexts[c] += n
    varied = {(v["input"], v["dim"]): v for v in use["varied"]}
    assert set(varied) == {("rows", 0), ("rows", 1), ("mask", 0), ("mask", 1)}
    for (name, dim), counted in {("rows", 0): batches, ("rows", 1): contexts, ("mask", 0): batches,
                                 ("mask", 1): contexts}.items():
        assert {s["size"]: s["calls"] for s in varied[(name, dim)]["sizes"]} == dict(counted)
    # Every recompile here is a shape's: the ones tct attributes add up to torch's (one graph a
    # compile with the eager backend and no break).
    assert sum(v["recompiles"] for v in use["varied"]) == truth["unique_graphs"] - 1 == site["recompiles"]
    assert "shapes: rows dim 0 took 6 sizes over 30 calls" in r.err
