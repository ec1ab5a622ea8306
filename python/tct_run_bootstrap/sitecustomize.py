"""tct run's bootstrap: imported by every Python the job starts (tct puts this folder first
on PYTHONPATH), it records, per torch.compile call site, raw facts only: the duration of
each call of the compiled object, the calls during which Dynamo compiled, the calls that ran
no compiled graph at all (eager: a skipped frame or the recompile limit) and the recompile
limit hits. Statistics and verdicts are tct's (C++), never computed here.

Costs nothing when torch is never imported: no torch import here, only a meta-path finder
that waits for `import torch`, then wraps torch.compile once torch has finished loading.
Chains to the user's own sitecustomize (the next one on sys.path), so nothing they set up
is lost.
"""
import os
import sys

_DIR = os.path.dirname(os.path.abspath(__file__))


def _chain_user_sitecustomize():
    # Python imports only the first sitecustomize on sys.path: this one. Load the next one
    # under the same name, as if we were not there. The import system's own frozen modules
    # do it: importing importlib.util would pull in contextlib and functools, milliseconds
    # that every Python of the job (torch or not) would pay.
    bootstrap = sys.modules["_frozen_importlib"]
    path_finder = next((f for f in sys.meta_path if getattr(f, "__name__", "") == "PathFinder"), None)
    if path_finder is None:
        return
    path = [p for p in sys.path if os.path.abspath(p or ".") != _DIR]
    spec = path_finder.find_spec("sitecustomize", path)
    if spec is None or spec.loader is None:
        return
    module = bootstrap.module_from_spec(spec)
    me = sys.modules.get("sitecustomize")
    sys.modules["sitecustomize"] = module
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # as site.py does: a broken sitecustomize is a warning, not a crash
        sys.stderr.write(f"Error in sitecustomize (loaded after tct's); set PYTHONVERBOSE for details: {e!r}\n")
    finally:
        sys.modules["sitecustomize"] = me


def _install():
    record_dir = os.environ.get("TCT_RUN_RECORD_DIR")
    if not record_dir:
        return

    class _TorchFinder:
        """Waits for the top-level `import torch` and hooks its loader; then leaves."""

        @staticmethod
        def find_spec(name, path=None, target=None):
            if name != "torch":
                return None
            sys.meta_path.remove(_TorchFinder)
            for finder in sys.meta_path:
                find = getattr(finder, "find_spec", None)
                spec = find(name, path, target) if find else None
                if spec is not None:
                    break
            else:
                return None
            loader = spec.loader
            exec_module = loader.exec_module

            def exec_and_hook(module):
                exec_module(module)
                try:
                    from tct_run_recorder import hook_torch
                except ImportError:  # the folder left sys.path: record nothing rather than fail
                    return
                hook_torch(module, record_dir)

            # A per-spec loader proxy: the shared loader object is left untouched.
            class _Loader:
                def create_module(self, spec):
                    return loader.create_module(spec)

                def exec_module(self, module):
                    exec_and_hook(module)

                def __getattr__(self, attr):
                    return getattr(loader, attr)

            spec.loader = _Loader()
            return spec

    sys.meta_path.insert(0, _TorchFinder)


_install()
_chain_user_sitecustomize()
