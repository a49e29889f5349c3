"""A browser check for HTML pages (the report): the system Chromium, headless, renders a copy
of the page into which two small scripts are injected, and says where elements are, how wide
the page is, what went wrong on the console, and what the page looks like (a screenshot).

Not a test module: tests call :func:`render_in_chromium` (after :func:`require_chromium`,
which skips with the reason when no Chromium is installed; CI installs one, ``.ci/run``), or
drive the same Chromium with Playwright (:func:`playwright_chromium`: pages that are used, not
only looked at, such as the judging page).

How it works. The copy gets a console hook as the first script of the page (it records
``console.error`` calls, uncaught exceptions and rejections, resources that failed to load
and Content-Security-Policy violations) and, just before ``</body>``, a measuring script that
runs after ``load``: ``getBoundingClientRect()`` of every element matching each selector,
``document.documentElement.clientWidth`` (the viewport) and ``scrollWidth``/``scrollHeight``,
written as JSON into a hidden ``<pre id="browser-check">``. Chromium runs with
``--dump-dom`` (the DOM after the scripts ran, from which the JSON is read) and
``--enable-logging=stderr --v=0``, whose ``CONSOLE`` lines are parsed too. What Chromium
(150, new headless) prints there, one line per console message, is the same for every level::

    [pid:tid:MMDD/hhmmss.micros:INFO:CONSOLE:2] "boom", source: file:///.../page.html (2)
    [pid:tid:MMDD/hhmmss.micros:INFO:CONSOLE:3] "Uncaught Error: kaput", source: file:///.../page.html (3)

(``console.error("boom")`` and ``console.log("boom")`` give the same line: the level is not
printed; older versions wrote ``INFO:CONSOLE(2)`` or ``ERROR:CONSOLE(2)``.) So errors come
from the in-page hook, and from the log only the lines an error is sure of: ``Uncaught ...``
(also thrown before the hook ran) and lines logged at level ``ERROR``. A
page whose Content-Security-Policy forbids inline scripts still runs the injected ones:
their hashes are added to the copy's policy. A second run takes a full-page screenshot of the
original page (window height: the page's ``scrollHeight``, at most 16000 pixels).
"""
from __future__ import annotations

import base64
import contextlib
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
MAX_SCREENSHOT_HEIGHT = 16000
TIMEOUT_S = 120

# The hook, first script of the page: records errors in window.__browserCheckErrors.
HOOK = r"""(function(){var E=window.__browserCheckErrors=[];function s(x){try{return x instanceof Error?String(x.stack||x):typeof x==='string'?x:JSON.stringify(x)}catch(e){return String(x)}}
var c=console.error;console.error=function(){E.push(Array.prototype.map.call(arguments,s).join(' '));return c.apply(console,arguments)};
window.addEventListener('error',function(e){if(e.target&&e.target!==window&&e.target.tagName){E.push('failed to load '+e.target.tagName.toLowerCase()+' '+(e.target.src||e.target.href||''))}else{E.push(e.message||s(e.error))}},true);
window.addEventListener('unhandledrejection',function(e){E.push('Uncaught (in promise) '+s(e.reason))});
document.addEventListener('securitypolicyviolation',function(e){E.push('Content-Security-Policy blocked '+(e.blockedURI||'')+' ('+e.violatedDirective+')')});})();"""

# The measuring script, just before </body>; __SELECTORS__ is replaced by a JSON list.
MEASURE = r"""(function(){var S=__SELECTORS__;function m(){var d=document.documentElement,o={boxes:{},selector_errors:{},
viewport_width:d.clientWidth,viewport_height:d.clientHeight,scroll_width:d.scrollWidth,scroll_height:Math.max(d.scrollHeight,document.body?document.body.scrollHeight:0),
console_errors:(window.__browserCheckErrors||[]).slice()};
S.forEach(function(q){var b=[];try{document.querySelectorAll(q).forEach(function(el){var r=el.getBoundingClientRect(),x=window.scrollX,y=window.scrollY;
b.push({left:r.left+x,top:r.top+y,right:r.right+x,bottom:r.bottom+y,width:r.width,height:r.height,text:(el.textContent||'').trim().slice(0,500),
classes:(el.getAttribute('class')||'').split(/\s+/).filter(Boolean),tag:el.tagName.toLowerCase()})})}catch(e){o.selector_errors[q]=String(e)}o.boxes[q]=b});
var p=document.createElement('pre');p.id='browser-check';p.style.display='none';p.textContent=JSON.stringify(o);document.body.appendChild(p)}
function later(){setTimeout(function(){try{m()}catch(e){var p=document.createElement('pre');p.id='browser-check';p.textContent=JSON.stringify({fatal:String(e)});document.body.appendChild(p)}},0)}
window.addEventListener('load',function(){if(document.fonts&&document.fonts.ready){document.fonts.ready.then(later,later)}else{later()}})})();"""

_CONSOLE = re.compile(r"^\[[^\]]*:(?P<level>[A-Z]+):CONSOLE[^\]]*\]\s*\"(?P<message>.*)\", source: (?P<source>.*?)(?: \((?P<line>\d+)\))?\s*$")
_CSP_META = re.compile(r"<meta\b[^>]*http-equiv\s*=\s*[\"']?content-security-policy[^>]*>", re.IGNORECASE)
_CONTENT = re.compile(r"(\bcontent\s*=\s*)([\"'])(.*?)\2", re.IGNORECASE | re.DOTALL)

PathLike = Union[str, "os.PathLike[str]"]


def chromium_path() -> Optional[str]:
    """The Chromium (or Chrome) executable on the PATH, or ``None``."""
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


def require_chromium() -> str:
    """The executable, or skip the calling test saying why (for tests only)."""
    import pytest

    found = chromium_path()
    if found is None:
        pytest.skip(f"no Chromium on the PATH (looked for {', '.join(BROWSERS)}): the browser check of the "
                    "HTML report did NOT run; install one (Debian: apt-get install chromium)")
    return found


@contextlib.contextmanager
def playwright_chromium() -> Iterator[Any]:
    """A Playwright ``Browser`` on the system's Chromium (:func:`require_chromium`: the same
    executable the report's checks run, headless), closed afterwards; skips the calling test,
    saying why, without Chromium or without the ``playwright`` package (the ``test`` extra has
    it). Playwright's own browser downloads are not needed."""
    import pytest

    executable = require_chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("no playwright package: the browser tests of the judging page did NOT run; "
                    "pip install -e '.[test]' installs it")
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=executable, headless=True,
                                         args=["--no-sandbox", "--disable-gpu"])
        try:
            yield browser
        finally:
            browser.close()


def _script_hash(script: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii") + "'"


def _allow_scripts(page: str, scripts: Sequence[str]) -> str:
    """The page with its Content-Security-Policy (``<meta http-equiv>``) allowing the injected
    inline scripts by hash; a policy that allows every inline script is left alone."""
    hashes = " ".join(_script_hash(s) for s in scripts)

    def widen(policy: str) -> str:
        directives = [d.strip() for d in policy.split(";") if d.strip()]
        names = [d.split()[0].lower() for d in directives]
        target = "script-src" if "script-src" in names else "default-src" if "default-src" in names else None
        if target is None:
            return policy
        k = names.index(target)
        sources = directives[k].split()[1:]
        lowered = [s.lower() for s in sources]
        if "'unsafe-inline'" in lowered and not any(s.startswith(("'sha", "'nonce-")) for s in lowered):
            return policy  # every inline script runs; a hash would switch 'unsafe-inline' off
        sources = [s for s in sources if s.lower() != "'none'"]
        directives[k] = " ".join([directives[k].split()[0], *sources, hashes])
        return "; ".join(directives)

    def meta(match: "re.Match[str]") -> str:
        tag = match.group(0)
        return _CONTENT.sub(lambda m: m.group(1) + m.group(2) + html.escape(widen(html.unescape(m.group(3))),
                                                                           quote=True) + m.group(2), tag, count=1)

    return _CSP_META.sub(meta, page)


def instrument(page: str, selectors: Sequence[str]) -> str:
    """The page with the console hook first and the measuring script before ``</body>``."""
    measure = MEASURE.replace("__SELECTORS__", json.dumps(list(selectors)).replace("</", "<\\/"))
    page = _allow_scripts(page, [HOOK, measure])
    hook_tag, measure_tag = f"<script>{HOOK}</script>", f"<script>{measure}</script>"
    # the hook goes after <meta charset> (which must stay in the first 1024 bytes), else after <head>/<html>
    for pattern in (r"<meta\b[^>]*charset[^>]*>", r"<head\b[^>]*>", r"<html\b[^>]*>", r"<!doctype[^>]*>"):
        match = re.search(pattern, page, re.IGNORECASE)
        if match:
            page = page[:match.end()] + hook_tag + page[match.end():]
            break
    else:
        page = hook_tag + page
    end = page.lower().rfind("</body>")
    return page[:end] + measure_tag + page[end:] if end >= 0 else page + measure_tag


def _run(chromium: str, args: List[str], profile: str) -> Tuple[str, str]:
    command = [chromium, "--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars", "--no-first-run",
               "--no-default-browser-check", "--disable-extensions", f"--user-data-dir={profile}", *args]
    try:
        done = subprocess.run(command, capture_output=True, text=True, errors="replace", timeout=TIMEOUT_S,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"Chromium took more than {TIMEOUT_S} s: {' '.join(command)}") from None
    if done.returncode != 0:
        raise RuntimeError(f"Chromium exited with {done.returncode}: {' '.join(command)}\n{done.stderr[-3000:]}")
    return done.stdout, done.stderr


def console_lines(log: str) -> List[Dict[str, Any]]:
    """The console messages in Chromium's ``--enable-logging=stderr`` output:
    ``{"level", "message", "source", "line"}`` each (level: the log level, INFO for every
    console level in Chromium 150)."""
    out = []
    for raw in log.splitlines():
        match = _CONSOLE.match(raw.strip())
        if match:
            out.append({"level": match["level"], "message": match["message"], "source": match["source"],
                        "line": int(match["line"]) if match["line"] else None})
    return out


def _is_error(line: Dict[str, Any]) -> bool:
    message = line["message"]
    return line["level"] in ("ERROR", "FATAL") or message.startswith("Uncaught")


def _same(a: str, b: str) -> bool:
    return a == b or a.startswith(b) or b.startswith(a)


def render_in_chromium(html_path: PathLike, width: int = 1400, height: int = 1000,
                       selectors: Sequence[str] = ("body",), screenshot: Optional[PathLike] = None
                       ) -> Dict[str, Any]:
    """Render ``html_path`` in headless Chromium (see the module docstring) and return::

        {"boxes": {selector: [{"left", "top", "right", "bottom", "width", "height", "text",
                               "classes", "tag"}, ...]},   # page coordinates, CSS pixels
         "viewport_width": ..., "viewport_height": ..., "scroll_width": ..., "scroll_height": ...,
         "console_errors": [message, ...],    # console.error, uncaught errors, failed loads, CSP
         "console_messages": [{"level", "message", "source", "line"}, ...],  # Chromium's log
         "selector_errors": {selector: why},  # a selector querySelectorAll rejects
         "screenshot": Path,                  # PNG of the whole page (height capped at 16000)
         "chromium": executable}

    ``screenshot`` is where the PNG goes (default: beside the page, ``NAME.browser-check.png``).
    The page itself is not changed; its instrumented copy lives in a temporary folder beside it
    (so that relative links still resolve) and is removed. Raises :class:`RuntimeError` without
    a Chromium, when it fails, or when the measuring script did not run."""
    chromium = chromium_path()
    if chromium is None:
        raise RuntimeError(f"no Chromium on the PATH (looked for {', '.join(BROWSERS)})")
    page = Path(html_path).resolve()
    shot = Path(screenshot) if screenshot is not None else page.with_name(page.stem + ".browser-check.png")
    text = page.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory(prefix=".browser-check-", dir=page.parent) as work, \
            tempfile.TemporaryDirectory(prefix="chromium-profile-") as profile:
        copy = Path(work) / page.name
        copy.write_text(instrument(text, selectors), encoding="utf-8")
        dom, log = _run(chromium, [f"--window-size={width},{height}", "--virtual-time-budget=5000",
                                   "--enable-logging=stderr", "--v=0", "--dump-dom", copy.as_uri()], profile)
        match = re.search(r'<pre id="browser-check"[^>]*>(.*?)</pre>', dom, re.DOTALL)
        if match is None:
            messages = [line["message"] for line in console_lines(log)]
            raise RuntimeError(f"the measuring script did not run in {page} (console: {messages}; "
                               f"{len(dom)} characters of DOM)")
        measured = json.loads(html.unescape(match.group(1)))
        if "fatal" in measured:
            raise RuntimeError(f"the measuring script failed in {page}: {measured['fatal']}")
        messages = console_lines(log)
        errors: List[str] = list(measured.pop("console_errors"))
        for line in messages:
            if _is_error(line) and not any(_same(line["message"], e) for e in errors):
                errors.append(line["message"])
        full_height = int(min(max(height, measured.get("scroll_height") or height), MAX_SCREENSHOT_HEIGHT))
        shot.parent.mkdir(parents=True, exist_ok=True)
        if shot.exists():
            shot.unlink()
        _run(chromium, [f"--window-size={width},{full_height}", "--virtual-time-budget=5000",
                        f"--screenshot={shot.resolve()}", page.as_uri()], profile)
    if not shot.is_file():
        raise RuntimeError(f"Chromium wrote no screenshot to {shot}")
    measured.update(console_errors=errors, console_messages=messages, screenshot=shot, chromium=chromium)
    return measured


__all__ = ["BROWSERS", "chromium_path", "console_lines", "instrument", "playwright_chromium", "render_in_chromium",
           "require_chromium"]
