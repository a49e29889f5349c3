"""``spacy-agreement judgments`` as one function: :func:`judgments` reads judged items (the exports
of judging pages, several judges' files merged by item, or a folder in the layout of the Plank et
al. 2015 release), scores each item's two parses with the parser metrics, and asks which metric
agrees with the judges (Plank et al. 2015, Tables 1, 3-5); it returns a :class:`JudgmentsRun`
whose :meth:`~JudgmentsRun.to_dict` is what ``judgments --json`` prints. The analysis itself is
:func:`~spacy_agreement.evaluation.judgments.analysis.analyse_judgments`, which keeps its signature.
"""
from __future__ import annotations

import os
from typing import Any, Dict, List, Sequence, Union

from ...adapters.judging_exports import export_kind, file_pages, key_records, read_judging_key, read_page_export
from ...errors import BadOptionError, JudgmentError
from ..command_results import CommandRun, html_table, json_safe, percent_text, resolve_settings
from .analysis import DEFAULT_METRICS, JudgmentAnalysis, analyse_judgments, iter_judgments, make_item
from .analysis_text import format_analysis
from ..dependency.settings import options_from_flags
from ..settings import JudgmentSettings

PathLike = Union[str, "os.PathLike[str]"]


def _pair(value: Union[str, Sequence[str]], option: str) -> tuple:
    """Two names, given as ``"a,b"`` (as the command takes them) or as a pair."""
    parts = tuple(v.strip() for v in value.split(",")) if isinstance(value, str) else tuple(value)
    if len(parts) != 2 or not all(parts):
        raise BadOptionError(f"{option} takes 2 comma-separated names, got {value!r}")
    return parts


class JudgmentsRun(CommandRun):
    """One ``judgments`` run: :attr:`analysis` (the paper's tables, a
    :class:`~spacy_agreement.evaluation.judgments.analysis.JudgmentAnalysis`, whose attributes this object
    also answers: ``items``, ``judges``, ``kappa``, ``metric_judge_agreement``,
    ``metric_correlations``, ``human_correlations``, ``mace``, ...) and the settings it ran with
    (:attr:`settings`, a :class:`~spacy_agreement.evaluation.settings.JudgmentSettings`).
    :meth:`to_dict` is ``judgments --json``, :meth:`text` its text without the signature line."""

    WRAPS = "analysis"

    def __init__(self, analysis: JudgmentAnalysis, settings: JudgmentSettings):
        self.analysis, self.settings = analysis, settings


    def to_dict(self) -> Dict[str, Any]:
        """What ``judgments --json`` prints (an undefined figure is None, JSON's null)."""
        return json_safe({**self.analysis.to_dict(), "signature": self.signature})

    def text(self) -> str:
        """The paper's tables as the command prints them (without the signature line)."""
        return format_analysis(self.analysis)

    @property
    def kappa(self) -> float:
        """The judges' chance-corrected agreement (Plank et al. 2015, Table 1), a fraction."""
        return float(self.analysis.kappa)

    @property
    def score(self) -> float:
        """The headline figure: the judges' κ (:attr:`kappa`)."""
        return self.kappa

    def __repr__(self) -> str:
        a = self.analysis
        agreement = ", ".join(f"{m} {percent_text(a.metric_judge_agreement[m])}" for m in a.metrics)
        won = a.wins.get("overall")
        preferred = f"won by A {won['A']}, by B {won['B']}, {won['tie']} ties; " if won else ""
        return (f"JudgmentsRun({a.items} items, {len(a.judges)} judges, {preferred}{a.kappa_kind} kappa "
                f"{percent_text(a.kappa)}; agreement with the judges: {agreement or 'no metric'}; {self.signature})")

    def _headline_html(self) -> str:
        a = self.analysis
        rows = [("items", str(a.items)), ("judges", ", ".join(a.judges)),
                ("agreement between judges", percent_text(a.judge_agreement)),
                (f"{a.kappa_kind} kappa", percent_text(a.kappa))]
        overall = a.wins.get("overall")
        if overall:
            p = a.sign_test.get("overall", float("nan"))
            rows.append((f"items won by A ({a.systems[0]}) / B ({a.systems[1]}) / ties",
                         f"{overall['A']} / {overall['B']} / {overall['tie']} (sign test p = "
                         f"{'-' if p != p else format(p, '.4g')})"))
        rows += [(f"agreement with the judges: {m}", percent_text(a.metric_judge_agreement[m])) for m in a.metrics]
        return html_table("judgments (Plank et al. 2015)", rows, self.signature,
                          [a.metrics_left_out] if a.metrics_left_out else [])


def judgments(*paths: PathLike, settings: Union[None, str, JudgmentSettings] = None,
              signature: Optional[str] = None, no_punct: bool = False,
              punct: str = "upos,label", verb_tags: Union[None, str] = None, content_tags: Union[None, str] = None,
              ned: str = "schwartz", kappa: str = "cohen", parses: Union[str, Sequence[str]] = "parser1,parser2",
              colours: Union[str, Sequence[str]] = "blue,red", ignore_forms: bool = False, ties: str = "half",
              seed: int = 0, metric: Sequence[str] = tuple(DEFAULT_METRICS),
              key: Union[None, PathLike, Sequence[PathLike]] = None, allow_mixed: bool = False) -> JudgmentsRun:
    """``spacy-agreement judgments PATH...``: which parser metric agrees with the people who judge
    parses (Plank et al. 2015): the judges' agreement and κ (Table 1), each metric's agreement
    with the judges (Table 5), Spearman's ρ between the metrics (Table 3) and with the judgments
    (Table 4, with Fisher's z against LAS), and MACE's competence of each judge.

    ``paths``: JSON Lines files of judged items (the exports of ``spacy-agreement judge`` pages:
    several judges' files merged by item, a later judgment of a judge replacing an earlier one
    with a warning), or a folder in the layout of the Plank et al. (2015) release (gold.conll,
    the ``parses`` files, annotated.csv with the ``colours`` meaning A and B). The items are read
    and scored one at a time.

    The options are the command's (``-`` as ``_``, its defaults): the metrics' ``no_punct``,
    ``punct``, ``verb_tags``, ``content_tags``, ``ned``, ``ignore_forms``; ``metric`` (the metrics
    compared), ``ties`` (half, skip, a or b), ``kappa`` (cohen or fleiss), ``seed`` (MACE's
    restarts). ``settings``: a :class:`~spacy_agreement.evaluation.settings.JudgmentSettings` or
    a signature given back (``--signature``).

    The exports of a blind judging page (since 0.4: choices ``"1"``, ``"2"``, ``"tie"``, ``"skip"`` in
    display order) need the page's ``key`` (``PAGE.key.json``, written beside the page by ``judge
    --html``; several pages: one key each), which maps each choice back to system A or B; without
    it the run stops and says how to give it. Exports of different pages (their ``page`` ids, 0.3's
    included) are refused together, naming them, unless ``allow_mixed``.

    Parameters
    ----------
    *paths
        The judges' exports (JSON Lines), or Plank et al.'s folders.
    settings
        A settings object of the command (keyword-only), whose fields an option given otherwise than
        by default must not contradict (an error naming the option).
    signature
        A signature given back (as ``--signature``: the signature, or a saved ``--json`` output).
    **options
        The command's long options (``-`` as ``_``) with its defaults (see above).

    Returns
    -------
    JudgmentsRun
        The judges' agreement and κ, each metric's agreement with them, the correlations;
        ``.score`` is the judges' κ, ``str()`` the command's text, ``to_dict()`` its ``--json``.

    Raises
    ------
    spacy_agreement.JudgmentError
        A malformed judgment, naming the file and the line.
    spacy_agreement.BadOptionError
        An option value the function cannot use, naming the option.

    Examples
    --------
    >>> import spacy_agreement as sa
    >>> from pathlib import Path
    >>> demo = Path(sa.__file__).parent / "data" / "demo"
    >>> import shutil, tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> for name, source in (("gold", "anna"), ("parser1", "ben"), ("parser2", "anna")):
    ...     _ = shutil.copy(demo / "dependency" / source / f"story-{source}.conllu", folder / f"{name}.conll")
    >>> _ = (folder / "annotated.csv").write_text("blue,blue\\nred,red\\nred,blue\\n")
    >>> run = sa.judgments(folder)
    >>> run.to_dict()["items"], round(run.kappa, 4)
    (3, 0.4)
    """
    if not paths:
        raise BadOptionError("no judgment file given")
    from ..._calling import name_list, positional_settings

    settings = positional_settings("judgments", (), settings, signature, JudgmentSettings)
    metric = name_list(metric) or ()  # one name, a comma-separated string or a list
    built = options_from_flags(no_punct, punct, None, verb_tags, content_tags, settings_class=JudgmentSettings,
                               ned=ned, metrics=tuple(metric), ties=ties, kappa=kappa, seed=seed,
                               check_forms=not ignore_forms)
    options = resolve_settings(settings, built)
    keys = [] if key is None else [key] if isinstance(key, (str, os.PathLike)) else list(key)
    kinds = {os.fspath(p): export_kind(p) for p in paths}
    _check_pages(paths, keys, allow_mixed)
    page_exports = [p for p in paths if kinds[os.fspath(p)] in ("page", "empty")]
    if keys or any(kinds[os.fspath(p)] == "page" for p in paths):
        others = [os.fspath(p) for p in paths if kinds[os.fspath(p)] == "items"]
        if others:
            raise BadOptionError(f"{', '.join(others)}: not the export of a judging page (0.4), given with "
                                 f"{'the key' if keys else 'such exports'}: analyse them apart")
        if not keys:
            listed = " ".join(os.fspath(p) for p in paths)
            raise JudgmentError(f"{os.fspath(page_exports[0])}: the exports of a blind judging page hold the choices "
                                "as shown (analysis 1 or 2), not the systems: give the page's key, written beside "
                                f"it by judge --html: spacy-agreement judgments {listed} --key PAGE.key.json")
        return _keyed(page_exports, keys, allow_mixed, options)
    # the items are read, checked and scored one at a time: no tree outlives its item
    folder = {} if not any(os.path.isdir(p) for p in paths) else {
        "parses": _pair(parses, "--parses"), "colours": _pair(colours, "--colours")}
    items = iter_judgments(paths[0] if len(paths) == 1 else list(paths), **folder)
    result = analyse_judgments(items, metrics=options.metrics, options=options, ties=options.ties,
                               seed=options.seed, kappa=options.kappa, check_forms=options.check_forms)
    return JudgmentsRun(result, options)


def _check_pages(paths: Sequence[PathLike], keys: Sequence[PathLike], allow_mixed: bool) -> None:
    """Exports (and keys) of more than one page are refused together, naming them, unless
    ``allow_mixed``."""
    if allow_mixed:
        return
    pages: Dict[str, List[str]] = {}
    for p in paths:
        for page in file_pages(p):
            pages.setdefault(page, []).append(os.fspath(p))
    for k in keys:
        pages.setdefault(read_judging_key(k)["page"], []).append(f"key {os.fspath(k)}")
    if len(pages) > 1:
        listed = "; ".join(f"page {page}: {', '.join(files)}" for page, files in pages.items())
        raise JudgmentError(f"these files are of {len(pages)} different judging pages ({listed}): analyse each "
                            "page's exports apart, or give --allow-mixed to pool them")


def _keyed(exports: Sequence[PathLike], keys: Sequence[PathLike], allow_mixed: bool,
           options: JudgmentSettings) -> JudgmentsRun:
    """The analysis of a blind page's exports through its key (or several pages' with --allow-mixed)."""
    loaded = [(os.fspath(k), read_judging_key(k)) for k in keys]
    pages = {key["page"] for _, key in loaded}
    answers = ((os.fspath(p), answer) for p in exports for answer in read_page_export(p))
    records, stats, skipped_items = key_records(loaded, answers, prefix=len(pages) > 1)
    if not records:
        counted = sum(s["answers"] for s in stats.values())
        raise JudgmentError(f"no item judged in {len(exports)} export(s) of page {', '.join(sorted(pages))}"
                            + (f" ({counted} answers, all skips)" if counted else " (no answer)"))
    systems = tuple(os.path.basename(loaded[0][1].get("systems", {}).get(s) or s) for s in ("A", "B")) \
        if len(pages) == 1 else ("A", "B")
    result = analyse_judgments((make_item(*r) for r in records), metrics=options.metrics, options=options,
                               ties=options.ties, seed=options.seed, kappa=options.kappa,
                               check_forms=options.check_forms, skips={j: s["skip"] for j, s in stats.items()},
                               skipped_items=skipped_items,
                               systems=systems, judge_ms={j: s["ms"] for j, s in stats.items()})
    return JudgmentsRun(result, options)


__all__ = ["JudgmentsRun", "judgments"]
