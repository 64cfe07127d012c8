"""ProbeReport -> Findings (pure). Every finding here is ``observed=True``: a probe saw it.

``snapshot``: when the probe skipped its own driver query (``gpu=False``), the host GPU
facts come from the snapshot instead; otherwise the probe report alone is enough.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set, Tuple

from dldoctor.checks import finding
from dldoctor.checks.preload import preload_fix
from dldoctor.conditions import version_key
from dldoctor.conditions.openmp import SIDE_BY_SIDE_FIX, clash
from dldoctor.conditions.probe import arch_supported, min_driver
from dldoctor.model import Diagnosis, Finding, Severity
from dldoctor.probe.loaded import duplicate_openmp, older_libstdcxx, replaced_copies
from dldoctor.probe.model import (
    OK,
    ImportProbe,
    LoadedLibrary,
    ModuleFacts,
    ProbeReport,
)
from dldoctor.redact import redact_home
from dldoctor.snapshot.model import Gpu, Snapshot

# The conditions this module's own rules report (a failed import is also diagnosed by explain's
# signatures, so any slug a signature names can appear as well). `check` runs the import probes
# only: no spawn probe, no GPU child.
SPAWN_SLUGS = ("multiprocessing-main-guard", "dataloader-worker-crash")
GPU_CHILD_SLUGS = ("gpu-arch-unsupported",)
SLUGS = (
    "import-order-conflict", "transitive-framework-import", "duplicate-openmp", "dll-version-conflict",
    "glibcxx-too-old", "gpu-build-without-gpu", "cpu-only-build", "driver-too-old", "import-failed",
    *GPU_CHILD_SLUGS, *SPAWN_SLUGS,
)


def _lib(lib: Optional[LoadedLibrary]) -> str:
    if lib is None:
        return "?"
    return redact_home(f"{lib.path} ({lib.owner or 'system'})")


def _finding(slug: str, message: str, evidence: Sequence[Tuple[str, str]], platform: str,
             fix: str = "", severity: Optional[Severity] = None) -> Finding:
    return finding(slug, message, ((k, redact_home(v)) for k, v in evidence), fix, severity=severity,
                   platform=platform, observed=True)


CLEAR_CONFIDENCE = 0.6  # a diagnosis this sure, and CLEAR_MARGIN ahead of the next, names the cause
CLEAR_MARGIN = 0.2


def diagnose_failure(probe: ImportProbe, snapshot: Optional[Snapshot] = None) -> Tuple[Diagnosis, ...]:
    """Likely causes of a failed probe, from the same signatures `dldoctor explain` uses."""
    from dldoctor.explainer import explain

    text = "\n".join((probe.message, probe.traceback, probe.stderr_tail, probe.exit))
    return tuple(d for d in explain(text, snapshot) if d.condition.slug != "import-failed")


def classify_failure(probe: ImportProbe, snapshot: Optional[Snapshot] = None) -> Optional[str]:
    """The condition that clearly explains a failed probe, or None when the text alone
    leaves several causes open (WinError 1114 on c10.dll, for one)."""
    diags = diagnose_failure(probe, snapshot)
    if not diags or diags[0].confidence < CLEAR_CONFIDENCE:
        return None
    if len(diags) > 1 and diags[0].confidence - diags[1].confidence < CLEAR_MARGIN:
        return None
    return diags[0].condition.slug


def _failure_findings(report: ProbeReport, snapshot: Optional[Snapshot] = None) -> List[Finding]:
    out: List[Finding] = []
    for probe in report.imports:
        if probe.status == OK:
            continue
        diags = diagnose_failure(probe, snapshot)
        slug = classify_failure(probe, snapshot) or "import-failed"
        ev = [("probe", f"import {probe.label}"), ("result", probe.summary())]
        if probe.failed_module:
            ev.append(("failed module", probe.failed_module))
        if slug == "import-failed":
            ev += [(f"possible cause {i + 1}", f"{d.condition.slug} ({d.confidence:.0%})")
                   for i, d in enumerate(diags[:3])]
        out.append(_finding(slug, f"import {probe.label}: {probe.summary()}"[:200], ev,
                            report.platform))
    return out


def _transitive_findings(report: ProbeReport) -> List[Finding]:
    """A probed package that pulled a framework in although it is not one."""
    out: List[Finding] = []
    for probe in report.imports:
        tops = {m.split(".")[0] for m in probe.modules}
        extra = [fw for fw in probe.frameworks if fw not in tops]
        if not extra:
            continue
        what = ", ".join(extra)
        ev = [("probe", f"import {probe.label}"), ("frameworks imported", what)]
        if not probe.ok:
            ev.append(("result", probe.summary()))
        out.append(_finding(
            "transitive-framework-import",
            f"importing {probe.label} imports {what}"
            + ("" if probe.ok else f", and failed: {probe.summary()}"[:160]),
            ev, report.platform))
    return out


def _order_findings(report: ProbeReport) -> List[Finding]:
    out: List[Finding] = []
    for c in report.conflicts:
        first, second = c.working
        ev = [("works", f"import {first}, then {second}"),
              ("fails", f"import {c.failing.label}: {c.failing.summary()}")]
        if c.culprit is not None:
            ev.append(("won in failing order", _lib(c.culprit)))
        if c.rival is not None:
            ev.append(("loaded in working order", _lib(c.rival)))
        cause = (f"; {c.culprit.name} from {c.culprit.owner or 'the system'} won"
                 if c.culprit else "")
        out.append(_finding(
            "import-order-conflict",
            f"{c.failing.modules[0]} before {c.failing.modules[1]} fails, "
            f"{first} before {second} works{cause}",
            ev, report.platform,
            fix=f"import {first} before {second} (or make both use one copy of "
                f"{c.culprit.name if c.culprit else 'the shared library'})"))
    return out


def _preloaded(report: ProbeReport, path: str) -> str:
    """The LD_PRELOAD entry that is ``path`` (by real path or file name), or ""."""
    real = os.path.realpath(path)
    for entry in report.preload:
        if os.path.realpath(entry) == real or ("/" not in entry and Path(path).name == entry):
            return entry
    return ""


# What ONNX Runtime logs when a provider library does not load -> the condition it shows.
_ORT_LOAD = re.compile(r"Failed to load library (?P<lib>\S+) with error: (?P<error>[^\n]{1,400})")
_ORT_CAUSES = (
    ("cannot open shared object", "missing-shared-library"),
    ("error 126", "missing-shared-library"),
    ("undefined symbol", "symbol-mismatch"),
    ("error 127", "symbol-mismatch"),
)
ORT_GPU_FIX = ("Install what the provider needs (CUDA 12.x and cuDNN 9.x for onnxruntime-gpu 1.19+: the nvidia-* "
               "wheels or a toolkit, and an NVIDIA driver), or use the CPU package `onnxruntime` where there is no "
               "GPU; check with `dldoctor deps` which library is missing.")


def _ort_findings(report: ProbeReport, snapshot: Optional[Snapshot]) -> List[Finding]:
    """Providers a real session asked for but did not use: ONNX Runtime falls back to CPU
    and says so only in its C++ log (microsoft/onnxruntime#21825, #25609)."""
    out: List[Finding] = []
    for p in report.ort:
        if p.loaded:
            continue
        m = _ORT_LOAD.search(p.log)
        error = m.group("error").strip() if m else ""
        slug = next((s for key, s in _ORT_CAUSES if key in error.lower()), "")
        if not slug:
            gpu = _gpu_info(report, snapshot)
            slug = "gpu-build-without-gpu" if not gpu.driver_present else "import-failed"
        why = f" ({m.group('lib')}: {error})" if m else ""
        # TensorRT is asked for by few; a GPU-less machine falls back by design.
        quiet = p.name == "TensorrtExecutionProvider" or not _gpu_info(report, snapshot).driver_present
        out.append(_finding(
            slug,
            f"onnxruntime {p.version}: {p.name} did not load{why}; sessions silently use CPUExecutionProvider",
            [("provider", p.name), ("session used", "CPUExecutionProvider"),
             ("onnxruntime log", m.group(0) if m else (p.log.splitlines() or ["(nothing logged)"])[0][:400])],
            report.platform, fix=ORT_GPU_FIX,
            severity=(Severity.INFO if p.name == "TensorrtExecutionProvider" else Severity.WARNING) if quiet else None))
    return out


def _all_probes(report: ProbeReport) -> List[ImportProbe]:
    return [*report.imports, *report.pairs]


def _loaded_findings(report: ProbeReport) -> List[Finding]:
    out: List[Finding] = []
    seen: Set[object] = set()
    natives: Dict[str, Tuple[str, ...]] = dict(report.owners_natives)
    levels = dict(report.cxx_levels)
    for probe in _all_probes(report):
        dup = duplicate_openmp(probe)
        key = ("omp", tuple(sorted(lib.path for _, lib in dup)))
        if dup and key not in seen:
            seen.add(key)
            why = clash(runtime for runtime, _ in dup)
            out.append(_finding(
                "duplicate-openmp",
                f"import {probe.label} loads {len(dup)} OpenMP runtimes into one process",
                [*((runtime, _lib(lib)) for runtime, lib in dup),
                 ("known clash", why or "none: two thread pools side by side (see the page)")],
                report.platform, fix="" if why else SIDE_BY_SIDE_FIX,
                severity=None if why else Severity.INFO))
        for dist, own, won in replaced_copies(probe, natives):
            key2 = ("dll", dist, own, won.path)
            if key2 in seen:
                continue
            seen.add(key2)
            out.append(_finding(
                "dll-version-conflict",
                f"{dist}'s own {Path(own).name} lost to another copy at run time",
                [("probe", f"import {probe.label}"), (f"{dist} ships", own),
                 ("loaded instead", _lib(won))], report.platform))
        old = older_libstdcxx(probe, levels)
        if old is not None:
            lib, mine, newer, lvl = old
            key3 = ("cxx", lib.path)
            if key3 in seen:
                continue
            seen.add(key3)
            failed = probe.status != OK and "GLIBCXX" in probe.message + probe.stderr_tail
            preloaded = _preloaded(report, lib.path)
            out.append(_finding(
                "glibcxx-too-old",
                f"an older libstdc++ (GLIBCXX_3.4.{mine}) loaded first"
                + (" because LD_PRELOAD loads it before everything else" if preloaded else "")
                + f"; {redact_home(newer)} has GLIBCXX_3.4.{lvl}",
                [("probe", f"import {probe.label}"), ("loaded", _lib(lib)),
                 *((("LD_PRELOAD", p) for p in report.preload) if preloaded else ()),
                 ("newer copy", newer)], report.platform,
                fix=preload_fix(report.preload, preloaded) if preloaded else "",
                severity=None if failed else Severity.WARNING))
    return out


def _torch_facts(report: ProbeReport) -> Optional[ModuleFacts]:
    for probe in _all_probes(report):
        for f in probe.facts:
            if f.name == "torch":
                return f
    return None


def _gpu_info(report: ProbeReport, snapshot: Optional[Snapshot]) -> Gpu:
    """The probe's own driver facts, or the snapshot's when the probe skipped the query."""
    if report.gpu.error != "skipped" or snapshot is None:
        return report.gpu
    g = snapshot.host.gpu
    return replace(g, source=f"snapshot ({g.source})", error="" if g.driver_present else g.source)


def _gpu_findings(report: ProbeReport, snapshot: Optional[Snapshot] = None) -> List[Finding]:
    out: List[Finding] = []
    gpu, tc = _gpu_info(report, snapshot), report.torch_cuda
    facts = _torch_facts(report)
    cuda = tc.cuda if tc is not None else (facts.cuda if facts else None)
    hip = tc.hip if tc is not None else (facts.hip if facts else None)
    have_torch = tc is not None or facts is not None
    if not have_torch or gpu.error == "skipped":  # no driver facts at all: no judgement
        return out
    plat = report.platform
    if cuda and not gpu.driver_present:
        out.append(_finding("gpu-build-without-gpu",
                            f"torch is a CUDA {cuda} build but no NVIDIA driver was found",
                            [("torch.version.cuda", cuda), ("driver", gpu.error or "absent")],
                            plat))
    if gpu.driver_present and not cuda and not hip:
        out.append(_finding("cpu-only-build",
                            "an NVIDIA driver is present but torch is a CPU-only build",
                            [("driver", gpu.driver_version or "?"),
                             ("torch", (tc.version if tc else None) or (facts.version if facts
                                                                         else None) or "?")],
                            plat))
    if gpu.driver_present and cuda and gpu.driver_version:
        full, compat = min_driver(cuda, "windows" if plat == "windows" else "linux")
        have = version_key(gpu.driver_version)
        if compat and have < version_key(compat):
            out.append(_finding(
                "driver-too-old",
                f"driver {gpu.driver_version} is older than {compat}, the minimum for CUDA {cuda}",
                [("driver", gpu.driver_version), ("torch.version.cuda", cuda),
                 ("minimum (minor version compatibility)", compat),
                 ("toolkit driver", full or "?")], plat))
    if tc is not None:
        for dev in tc.devices:
            bad_kernel = "no kernel image" in dev.kernel
            if (dev.capability and not arch_supported(dev.capability, tc.arch_list)) or bad_kernel:
                cap = ".".join(map(str, dev.capability)) if dev.capability else "?"
                out.append(_finding(
                    "gpu-arch-unsupported",
                    f"GPU {dev.index} ({dev.name}, sm_{cap.replace('.', '')}) is not in torch's "
                    "arch list",
                    [("capability", cap), ("torch arch list", " ".join(tc.arch_list)),
                     ("kernel", dev.kernel or "?")], plat))
    return out


def _spawn_findings(report: ProbeReport) -> List[Finding]:
    out: List[Finding] = []
    for s in report.spawn:
        if s.ok:
            continue
        text = s.error + "\n" + s.traceback
        slug = "multiprocessing-main-guard" if "freeze_support" in text or \
            "bootstrapping phase" in text else "dataloader-worker-crash"
        out.append(_finding(slug, f"spawn probe ({s.what}) failed: {s.error}"[:200],
                            [("probe", f"spawn {s.what}"), ("error", s.error[:500])],
                            report.platform))
    return out


def probe_findings(report: ProbeReport, snapshot: Optional[Snapshot] = None) -> List[Finding]:
    """Every observed finding of a ProbeReport, most specific first, without repeats."""
    found = [*_order_findings(report), *_transitive_findings(report), *_loaded_findings(report),
             *_gpu_findings(report, snapshot), *_ort_findings(report, snapshot), *_spawn_findings(report),
             *_failure_findings(report, snapshot)]
    out: List[Finding] = []
    seen = set()
    for f in found:
        key = (f.condition.slug, f.message)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out

