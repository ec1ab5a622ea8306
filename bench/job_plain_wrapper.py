"""The plain side of bench/job_oracle.py's shipped mode: runs a job script as `python SCRIPT
ARGS` would (runpy, __main__), after torch.compiler.load_cache_artifacts of LOAD (when given)
and, at exit, saving torch.compiler.save_cache_artifacts to SAVE (when given). No tct code.

    python job_plain_wrapper.py LOAD|- SAVE|- SCRIPT ARGS...
"""
import atexit
import runpy
import sys

load, save, script, rest = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
if load != "-":
    import torch

    with open(load, "rb") as f:
        torch.compiler.load_cache_artifacts(f.read())
if save != "-":

    def _save():
        import torch

        saved = torch.compiler.save_cache_artifacts()
        with open(save, "wb") as f:
            f.write(saved[0] if saved else b"")

    atexit.register(_save)
sys.argv = [script, *rest]
runpy.run_path(script, run_name="__main__")
