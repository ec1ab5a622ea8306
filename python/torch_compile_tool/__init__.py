"""torch-compile-tool from Python: run the tct binary, get its JSON document as a dict.

    import torch_compile_tool as tct
    doc = tct.bench("builtin:mlp", backend="aot_eager", budget=2, param={"batch": 64})
    tct.assert_speedup(doc, at_least=1.1)

Every decision and statistic is the binary's; this package only runs it and raises a
typed error (exit code, message, partial document) when it fails.
"""
from .api import SCHEMA, allowed_options, audit, bench, expect, explain, find_binary, job, probe, run, startup
from .checks import assert_speedup
from .errors import (TctCheckFailedError, TctError, TctInternalError, TctInterruptedError, TctSpawnError,
                     TctTargetError, TctUsageError)

__all__ = [
    "SCHEMA", "allowed_options", "assert_speedup", "audit", "bench", "expect", "explain", "find_binary", "job",
    "probe", "run", "startup", "TctCheckFailedError", "TctError", "TctInternalError", "TctInterruptedError", "TctSpawnError",
    "TctTargetError", "TctUsageError",
]
