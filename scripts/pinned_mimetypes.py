"""The media-type table every recording and generated table uses: Python's
built-in strict table, never the host's /etc/mime.types, plus Markdown
(`.md` and `.markdown` as `text/markdown`), which Python 3.13's own table
and the mime.types of common hosts carry and Python 3.12's table lacks.

    import pinned_mimetypes; pinned_mimetypes.pin()
"""
import mimetypes

MARKDOWN = (".md", ".markdown")


def pin():
    """Resets `mimetypes` to the pinned table (call before the SDK is used)."""
    mimetypes.knownfiles = []
    mimetypes.init()
    for ext in MARKDOWN:
        mimetypes.add_type("text/markdown", ext)
