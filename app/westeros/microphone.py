"""The microphone in the desktop windows (issue 39, table voice): granted to the pages of one
origin only — the local core's in the app's window, the online server's a *Play online*
window was opened for (``remote``) — and refused to any other page either window may come
to show; the camera and every other permission are refused.

pywebview's Qt backend grants the microphone and camera to every page that asks: it starts Qt
WebEngine with Chromium's ``--use-fake-ui-for-media-stream`` (every request granted without
asking Qt) and answers Qt's requests "granted" as well. Here that switch is kept out of the
window's Chromium flags and its handler replaced. Qt WebEngine (Linux):
``featurePermissionRequested`` (Qt < 6.8) or ``permissionRequested`` (Qt 6.8+) of the
window's page. WebView2 (Windows): ``CoreWebView2.PermissionRequested``,
once the control is ready (not tested here: no Windows runner)."""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import os
import sys
from typing import Any
from urllib.parse import urlsplit

log = logging.getLogger("westeros.desktop")

FAKE_MEDIA_UI = "--use-fake-ui-for-media-stream"
FLAGS = "QTWEBENGINE_CHROMIUM_FLAGS"


def origin(url: str) -> str:
    """The origin of ``url`` as a browser names it: ``scheme://host[:port]``, lower case,
    the default port left out."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    default = {"http": 80, "https": 443}.get(scheme)
    port = "" if parts.port in (None, default) else f":{parts.port}"
    return f"{scheme}://{host}{port}"


def allows(allowed: str, page_url: str) -> bool:
    """Whether the page at ``page_url`` may have the microphone when ``allowed`` (an origin)
    may."""
    return bool(page_url) and origin(page_url) == allowed


def microphone_only_for(window: Any, url: str, gui: str | None) -> None:
    """Let only pages of ``url``'s origin have the microphone of ``window`` (a
    ``webview.Window`` not shown yet, of pywebview backend ``gui``)."""
    allowed = origin(url)
    qt_backend = gui == "qt" or (gui is None and importlib.util.find_spec("qtpy") is not None)
    if qt_backend and sys.platform != "win32":  # pywebview's choice on Linux when not told
        _no_fake_media_ui()

    def guard(window: Any) -> None:
        native: Any = window.native
        try:
            if hasattr(native, "webview") and hasattr(native.webview, "page"):
                guard_qt_page(native.webview.page(), allowed)
            elif hasattr(getattr(native, "browser", None), "webview"):
                guard_webview2(native.browser.webview, allowed)
            else:
                log.info("no microphone guard for this window's backend")
        except Exception:  # a backend we do not know: log it, never break the window
            log.exception("the microphone guard could not be installed")

    window.events.before_show += guard


def _no_fake_media_ui() -> None:
    """Keep ``FAKE_MEDIA_UI`` out of the Chromium flags pywebview's Qt backend gives Qt
    WebEngine when it makes a window (its ``environ_append``, which it calls by that name).
    Without that module there is no such backend, so nothing adds the flag."""
    try:
        import webview.platforms.qt as qt
    except ImportError:
        log.info("pywebview has no Qt backend here: no media flag to keep out")
        return

    flags = os.environ.get(FLAGS, "").split()
    if FAKE_MEDIA_UI in flags:
        os.environ[FLAGS] = " ".join(flag for flag in flags if flag != FAKE_MEDIA_UI)
    append = qt.environ_append
    if getattr(append, "keeps_media_ui", False):
        return

    def environ_append(key: str, *values: str, sep: str = " ") -> None:
        append(key, *(value for value in values if value != FAKE_MEDIA_UI), sep=sep)

    environ_append.keeps_media_ui = True  # type: ignore[attr-defined]
    qt.environ_append = environ_append


def guard_qt_page(page: Any, allowed: str) -> None:
    """Answer the permission requests of ``page`` (a QWebEnginePage): the microphone for
    ``allowed`` only; nothing else, to anyone."""
    from qtpy.QtWebEngineCore import QWebEnginePage

    feature = QWebEnginePage.Feature
    granted = QWebEnginePage.PermissionPolicy.PermissionGrantedByUser
    denied = QWebEnginePage.PermissionPolicy.PermissionDeniedByUser

    def on_feature(url: Any, wanted: Any) -> None:
        ok = wanted == feature.MediaAudioCapture and allows(allowed, url.toString())
        log.info("microphone %s to %s", "granted" if ok else "refused", origin(url.toString()))
        page.setFeaturePermission(url, wanted, granted if ok else denied)

    with contextlib.suppress(TypeError):  # pywebview's handler: everything to everyone
        page.featurePermissionRequested.disconnect()
    if not hasattr(page, "permissionRequested"):  # Qt < 6.8
        page.featurePermissionRequested.connect(on_feature)
    else:
        from qtpy.QtWebEngineCore import QWebEnginePermission

        microphone = QWebEnginePermission.PermissionType.MediaAudioCapture

        def on_permission(permission: Any) -> None:
            ok = permission.permissionType() == microphone and allows(
                allowed, permission.origin().toString()
            )
            log.info("microphone %s to %s", "granted" if ok else "refused", permission.origin())
            if ok:
                permission.grant()
            else:
                permission.deny()

        page.permissionRequested.connect(on_permission)


def guard_webview2(control: Any, allowed: str) -> None:
    """Answer the permission requests of ``control`` (a WebView2 control) once it is ready:
    the microphone for ``allowed`` only; nothing else, to anyone."""
    from Microsoft.Web.WebView2.Core import (
        CoreWebView2PermissionKind,
        CoreWebView2PermissionState,
    )

    def on_permission(_sender: Any, args: Any) -> None:
        ok = args.PermissionKind == CoreWebView2PermissionKind.Microphone and allows(
            allowed, str(args.Uri)
        )
        args.State = CoreWebView2PermissionState.Allow if ok else CoreWebView2PermissionState.Deny

    def on_ready(sender: Any, args: Any) -> None:
        if args.IsSuccess:
            sender.CoreWebView2.PermissionRequested += on_permission

    if control.CoreWebView2 is not None:
        control.CoreWebView2.PermissionRequested += on_permission
    else:
        control.CoreWebView2InitializationCompleted += on_ready
