"""Translated text in templates is text, never markup (issue 14, Why 3).

jinja2's newstyle gettext marks what ``_()`` returns as safe HTML, so ``_(h.name)`` with a
plugin's house name, an option's text or a value read back from the database went into the
page unescaped — and so would a translation that holds markup. ``install`` gives an
environment gettext functions that escape the translation itself; variables passed to
``_("… %(x)s", x=…)`` are escaped as before (newstyle gettext formats with ``Markup %``)."""

from __future__ import annotations

import gettext

from jinja2 import Environment
from markupsafe import Markup, escape


def install(env: Environment, translations: gettext.NullTranslations) -> None:
    """Install ``translations`` in ``env`` (the ``i18n`` extension, newstyle) so that every
    translated message is escaped."""

    def text(message: str) -> Markup:
        return escape(translations.gettext(message))

    def plural(singular: str, plural_form: str, n: int) -> Markup:
        return escape(translations.ngettext(singular, plural_form, n))

    def in_context(context: str, message: str) -> Markup:
        return escape(translations.pgettext(context, message))

    def plural_in_context(context: str, singular: str, plural_form: str, n: int) -> Markup:
        return escape(translations.npgettext(context, singular, plural_form, n))

    env.install_gettext_callables(  # type: ignore[attr-defined]
        text, plural, newstyle=True, pgettext=in_context, npgettext=plural_in_context
    )
