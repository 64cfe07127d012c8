"""Weigh text candidates with facts from a machine: what the checks saw, what is installed.

Kept pure (candidates, snapshot, check results in; candidates out) so it is tested with
hand-written snapshots. The snapshot is read defensively through :func:`facts_from_snapshot`,
which accepts the ``Snapshot`` dataclass or its ``to_dict()`` form: a doctor given a
half-broken snapshot weighs with what it has instead of dying.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace
from typing import Any, Iterable, List, Mapping, Optional, Sequence, Tuple

from dldoctor.explainer.match import Candidate, Hit, rank
from dldoctor.explainer.platform import os_family
from dldoctor.explainer.signatures import EvidenceRule, SignatureSet
from dldoctor.model import CheckResult
from dldoctor.snapshot.model import Framework

FINDING_KEEP = 0.25  # a finding of the same condition leaves 25% of the doubt
PASSED_FACTOR = 0.6  # the check ran and found nothing
MAX_CONFIDENCE = 0.99


@dataclass(frozen=True)
class Facts:
    """The few machine facts the evidence rules talk about (None = unknown)."""

    os: Optional[str] = None  # linux | windows | macos
    torch_version: Optional[str] = None
    torch_cuda: Optional[str] = None  # "12.1", or "none" for a CPU-only build
    gpu_driver: Optional[str] = None  # "true" | "false"
    python_bits: Optional[str] = None  # "32" | "64"
    python: Optional[str] = None  # the interpreter's version, "3.10" or "3.10.6"

    def get(self, name: str) -> Optional[str]:
        value: Optional[str] = getattr(self, name)
        return value

    @property
    def known(self) -> bool:
        return any(getattr(self, f.name) is not None for f in fields(self))


def _get(obj: Any, *path: str) -> Any:
    """Walk attributes or mapping keys; None as soon as a step is missing."""
    for step in path:
        if obj is None:
            return None
        obj = obj.get(step) if isinstance(obj, Mapping) else getattr(obj, step, None)
    return obj


def _text(value: Any) -> Optional[str]:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).strip().lower() or None


def facts_from_mapping(raw: Mapping[str, Any]) -> Facts:
    """Facts from a flat mapping (corpus cases, tests): unknown keys are ignored; the OS as its
    family ("Windows 10 64bit" is windows), the only form the evidence rules compare."""
    values = {f.name: _text(raw.get(f.name)) for f in fields(Facts)}
    values["os"] = os_family(values["os"])
    return Facts(**values)


def _torch_cuda(fw: Any) -> Optional[str]:
    """The CUDA torch was built for: a version, or "none" when it is known to be a CPU build;
    None when the snapshot does not say. A Snapshot's Framework answers for itself
    (:attr:`Framework.cuda`); a raw or partial snapshot dict is read defensively."""
    if isinstance(fw, Framework):
        cuda = fw.cuda
        return None if cuda == "" else ("none" if cuda is None else _text(cuda))
    values = _get(fw, "values")
    if isinstance(values, Mapping) and "cuda" in values:
        raw = values["cuda"]
    elif isinstance(fw, Mapping) and "cuda" in fw:
        raw = fw["cuda"]
    else:
        return None
    return _text(raw) if raw else "none"


def facts_from_snapshot(snapshot: Any) -> Facts:
    """Pick the facts out of a Snapshot (object or dict); never raises on odd shapes."""
    if snapshot is None:
        return Facts()
    torch_version = torch_cuda = None
    frameworks = _get(snapshot, "frameworks") or ()
    if isinstance(frameworks, Iterable) and not isinstance(frameworks, (str, bytes)):
        for fw in frameworks:
            if _get(fw, "name") == "torch":
                torch_version = _text(_get(fw, "version"))
                torch_cuda = _torch_cuda(fw)
                break
    bits = _get(snapshot, "interpreter", "bits")
    info = _get(snapshot, "interpreter", "version_info")
    python = None
    if isinstance(info, (list, tuple)) and len(info) >= 2 and all(isinstance(x, int) for x in info[:2]):
        python = f"{info[0]}.{info[1]}"
    return Facts(
        os=_text(_get(snapshot, "host", "os")),
        torch_version=torch_version,
        torch_cuda=torch_cuda,
        gpu_driver=_text(_get(snapshot, "host", "gpu", "driver_present")),
        python_bits=_text(bits) if isinstance(bits, int) else None,
        python=python,
    )


def _apply_rules(cand: Candidate, facts: Facts, rules: Sequence[EvidenceRule]) -> Candidate:
    conf = cand.confidence
    evidence = list(cand.evidence)
    for rule in rules:
        if rule.slug != cand.slug:
            continue
        value = facts.get(rule.fact)
        if rule.applies(value):
            conf *= rule.factor
            evidence.append((rule.fact, f"{value}: {rule.reason}"))
    return replace(cand, confidence=conf, evidence=tuple(evidence))


_PACKAGE_IN_PATH = re.compile(r"(?:/|\\{1,2})(?:site|dist)-packages(?:/|\\{1,2})(\w{1,100})(?:/|\\{1,2})")


def _other_package(hit: Hit) -> bool:
    """The hit's subject is a file inside an installed package other than torch."""
    return any(m.group(1) != "torch" for _, value in hit.subject for m in _PACKAGE_IN_PATH.finditer(value))


LISTED_FACTOR = 2.2  # the machine has a release the table lists for its platform
UNLISTED_FACTOR = 0.2  # the machine's torch is not a listed release


def _apply_releases(cand: Candidate, facts: Facts, load_failed: bool = False) -> Candidate:
    """known-bad-release, weighed with the machine's torch release against the release table
    (the same table check reads): listed for this OS raises it, any other release lowers it,
    unless the text pointed at a regression of another distribution (MKL, onnxruntime).

    A listed release on a machine whose text shows a failed load is evidence of its own, as
    strong as the text naming the release (``RELEASE``): it combines with the text's weight
    (noisy-or), so a weak textual lead (a generic "Error loading ... or one of its
    dependencies") is not left below the mechanism only because the text's weight was small."""
    from dldoctor.explainer.releases import RELEASE, SLUG, hit_release, listed_release

    if cand.slug != SLUG or not facts.torch_version:
        return cand
    if any(_other_package(h) for h in cand.hits):
        return cand  # another package's regression (a file missing from xformers): torch's release says nothing
    # first the entry the text itself pointed at, when the machine has that very release (it may be
    # one that breaks only beside another package, torch 2.3.0 with torchdata, which listed_release
    # leaves out); then the entry whose kind of failure the text shows: a failed load, or a wrong run
    entry = next(filter(None, (hit_release(h, facts.torch_version, facts.os)
                               for h in cand.hits if h.signature == "release-torch")), None)
    entry = entry or listed_release("torch", facts.torch_version, facts.os, load=load_failed)
    entry = entry or listed_release("torch", facts.torch_version, facts.os)
    if entry is not None:
        reason = f"{facts.torch_version}: listed in the release table ({entry['symptom']}; {entry['source']})"
        conf = cand.confidence * LISTED_FACTOR
        if load_failed:
            conf = max(conf, 1.0 - (1.0 - cand.confidence) * (1.0 - RELEASE))
        return replace(cand, confidence=conf, evidence=(*cand.evidence, ("torch_version", reason)))
    if any(h.signature.startswith("release-") and h.signature != "release-torch" for h in cand.hits):
        return cand
    if "dev" in facts.torch_version or "nightly" in facts.torch_version:
        return cand  # a nightly build: the table lists releases only, a nightly can break on its own
    reason = f"{facts.torch_version}: not a release the table lists as broken"
    return replace(cand, confidence=cand.confidence * UNLISTED_FACTOR,
                   evidence=(*cand.evidence, ("torch_version", reason)))


MACHINE_RELEASE = 0.3  # the text fails to load and only the machine names the release (times LISTED_FACTOR)


def _add_machine_release(cands: Sequence[Candidate], facts: Facts, text: str) -> Sequence[Candidate]:
    """known-bad-release as a candidate when the machine's torch is a release the table lists
    for its OS and the text shows a failed import or load, even if the text names neither the
    release nor its mark: the machine reveals the version (issue 14, item 3). A candidate the
    text already proposed is weighed by :func:`_apply_releases` instead."""
    from dldoctor.explainer.match import is_fallback
    from dldoctor.explainer.releases import LOAD_FAILURE, SLUG, listed_release

    proposed = next((c for c in cands if c.slug == SLUG), None)
    if not text or not facts.torch_version or (proposed is not None and not is_fallback(proposed)):
        return cands
    entry = listed_release("torch", facts.torch_version, facts.os, load=True)
    failure = LOAD_FAILURE.search(text) if entry is not None else None
    if entry is None or failure is None:
        return cands
    line = text.count("\n", 0, failure.start()) + 1
    shown = text[text.rfind("\n", 0, failure.start()) + 1 : failure.end() + 200].split("\n", 1)[0]
    hit = Hit("release-torch", line, shown, (("version", f"torch {entry['specifier']}"),))
    if proposed is not None:  # only words (or the error's shape) proposed it: the machine's release is evidence
        merged = Candidate(SLUG, max(proposed.confidence, MACHINE_RELEASE), (hit, *proposed.hits), proposed.evidence)
        return tuple(merged if c is proposed else c for c in cands)
    return (*cands, Candidate(SLUG, MACHINE_RELEASE, (hit,)))


def _apply_checks(cand: Candidate, results: Sequence[CheckResult]) -> Candidate:
    conf = cand.confidence
    evidence = list(cand.evidence)
    for result in results:
        if result.condition.slug != cand.slug:
            continue
        label = f"check {result.condition.code}"
        if result.findings:
            conf = 1.0 - (1.0 - conf) * FINDING_KEEP
            for finding in result.findings:
                evidence.append((label, finding.message))
                evidence.extend((e.label, e.value) for e in finding.evidence)
        elif not result.skipped:
            conf *= PASSED_FACTOR
            evidence.append((label, "ran on this machine and found nothing"))
    return replace(cand, confidence=conf, evidence=tuple(evidence))


def weigh_facts(
    cands: Sequence[Candidate],
    facts: Facts,
    results: Sequence[CheckResult],
    sigs: SignatureSet,
    text: str = "",
) -> Tuple[Candidate, ...]:
    """Raise or lower each candidate with machine facts and check results, then re-rank
    (``text``: the pasted text, when the machine's release may add a candidate of its own)."""
    from dldoctor.explainer.releases import LOAD_FAILURE

    out: List[Candidate] = []
    load_failed = bool(text and facts.torch_version and LOAD_FAILURE.search(text))
    for cand in _add_machine_release(cands, facts, text):
        cand = _apply_rules(cand, facts, sigs.evidence)
        cand = _apply_checks(_apply_releases(cand, facts, load_failed), results)
        out.append(replace(cand, confidence=round(min(cand.confidence, MAX_CONFIDENCE), 4)))
    return rank(out)


def weigh(
    cands: Sequence[Candidate],
    snapshot: Any,
    results: Sequence[CheckResult],
    sigs: SignatureSet,
) -> Tuple[Candidate, ...]:
    """The entry point the CLI uses: (diagnoses, snapshot, check results) -> diagnoses."""
    return weigh_facts(cands, facts_from_snapshot(snapshot), results, sigs)
