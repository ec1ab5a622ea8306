"""A clock of the machine's for a command's processes, read beside tct's and not by it: the
oracle for the wall times tct measures (tests/e2e/test_job.py, bench/job_wall_time.py)."""
import glob
import json
import os
import threading
import time


class ProcessLifetimes(threading.Thread):
    """Each process whose command line holds `marker`, from the kernel's record of its start
    (/proc/PID/stat's starttime, at its fork) to the first look that finds it exited (a zombie or
    gone), looking every 10 ms."""

    def __init__(self, marker):
        super().__init__(daemon=True)
        self.marker, self.tick = marker.encode(), os.sysconf("SC_CLK_TCK")
        self.start_s, self.end_s, self.seen = {}, {}, set()
        self.done = threading.Event()

    def stat(self, pid):
        try:
            with open(f"/proc/{pid}/stat") as f:
                return f.read().rsplit(")", 1)[1].split()
        except OSError:
            return None

    def look(self):
        now = time.clock_gettime(time.CLOCK_BOOTTIME)  # /proc's starttime counts from boot too
        for pid in self.start_s.keys() - self.end_s.keys():
            fields = self.stat(pid)
            if fields is None or fields[0] == "Z":
                self.end_s[pid] = now
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) in self.seen:
                continue
            pid = int(name)
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    cmdline = f.read()
            except OSError:
                continue
            if not cmdline:  # a kernel thread, or a process in the middle of its exec: look again
                continue
            self.seen.add(pid)
            fields = self.stat(pid)
            if self.marker in cmdline and fields is not None:
                self.start_s[pid] = int(fields[19]) / self.tick

    def run(self):
        while not self.done.wait(0.01):
            self.look()
        self.look()

    def seconds(self, pid):
        return self.end_s[pid] - self.start_s[pid]

    def run_seconds(self, run):
        """The lifetime of the process that a run of tct job's document recorded (its pid is in
        the run's record file)."""
        (record,) = glob.glob(os.path.join(run["dir"], "**", "process-*.json"), recursive=True)
        with open(record) as f:
            return self.seconds(json.load(f)["pid"])
