"""A PDF written page by page, so memory stays flat however many pages a deck needs.

The writer starts with the objects :class:`generator.sheets.forms.FormLibrary`
compiled (forms, fonts, the shared resource dictionary), then appends each
page as it comes: a compressed content stream and a page dictionary. It keeps
only one number per object written (its offset, for the cross-reference
table), so memory grows by a few bytes a page, never by a page's content.

The output is reproducible: the same pages give the same bytes (no dates,
and the file identifier is a digest of the content).
"""

from __future__ import annotations

import hashlib
import zlib
from array import array
from typing import BinaryIO

from generator.sheets.forms import CompiledForms, number

BINARY_MARKER = b"%\xe2\xe3\xcf\xd3\n"
"""A comment of high bytes after the header tells transfer tools the file is binary."""

KIDS_PER_LINE = 1000


class PdfPageWriter:
    """Streams a PDF to ``stream``: ``add_page`` for every page, then ``close``."""

    def __init__(self, stream: BinaryIO, forms: CompiledForms, page_size: tuple[float, float]):
        self._stream = stream
        self._forms = forms
        self._written = 0
        self._digest = hashlib.md5(usedforsecurity=False)
        self._media_box = b"[0 0 %s %s]" % (number(page_size[0]).encode(), number(page_size[1]).encode())
        self._offsets: dict[int, int] = {}
        self._first_streamed = forms.last_number + 1
        self._streamed_offsets = array("Q")
        self.pages = 0
        self._write(forms.version + b"\n" + BINARY_MARKER)
        for object_number, chunk in forms.objects:
            self._offsets[object_number] = self._written
            self._write(chunk)

    def _write(self, data: bytes) -> None:
        self._stream.write(data)
        self._digest.update(data)
        self._written += len(data)

    def _next_number(self) -> int:
        return self._first_streamed + len(self._streamed_offsets)

    def _stream_objects(self, *bodies: bytes) -> int:
        """Write the next streamed objects in one go; return the number of the last."""
        chunks = []
        offset = self._written
        for body in bodies:
            object_number = self._next_number()
            self._streamed_offsets.append(offset)
            chunks.append(b"%d 0 obj\n%s\nendobj\n" % (object_number, body))
            offset += len(chunks[-1])
        self._write(b"".join(chunks))  # one write and digest update a page, not one an object
        return object_number

    def _page_number_object(self, page_index: int) -> int:
        """Pages are written as (content, page) pairs, so page objects are found by arithmetic."""
        return self._first_streamed + 2 * page_index + 1

    def add_page(self, content: bytes) -> None:
        """Append a page drawn by the content-stream operators ``content``."""
        packed = zlib.compress(content)
        contents = self._next_number()
        page = self._stream_objects(
            b"<< /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream" % (len(packed), packed),
            b"<< /Type /Page /Parent %d 0 R /MediaBox %s /Resources %d 0 R /Contents %d 0 R >>"
            % (self._forms.pages_number, self._media_box, self._forms.resources_number, contents))
        assert page == self._page_number_object(self.pages)
        self.pages += 1

    def close(self) -> None:
        """Write the page tree, catalog, cross-reference table and trailer."""
        forms = self._forms
        self._offsets[forms.pages_number] = self._written
        self._write(b"%d 0 obj\n<< /Type /Pages /Count %d /Kids [" % (forms.pages_number, self.pages))
        for first in range(0, self.pages, KIDS_PER_LINE):
            last = min(first + KIDS_PER_LINE, self.pages)
            self._write(b"\n" + b" ".join(b"%d 0 R" % self._page_number_object(index)
                                          for index in range(first, last)))
        self._write(b" ] >>\nendobj\n")
        self._offsets[forms.catalog_number] = self._written
        self._write(b"%d 0 obj\n<< /Type /Catalog /Pages %d 0 R >>\nendobj\n"
                    % (forms.catalog_number, forms.pages_number))
        self._write_xref()

    def _write_xref(self) -> None:
        size = self._next_number()
        free = sorted(self._forms.free_numbers)
        next_free = dict(zip([0] + free, free + [0], strict=True))
        xref_offset = self._written
        self._write(b"xref\n0 %d\n" % size)
        lines = []
        for object_number in range(size):
            if object_number in next_free:
                generation = 65535 if object_number == 0 else 1
                lines.append(b"%010d %05d f \n" % (next_free[object_number], generation))
            elif object_number >= self._first_streamed:
                lines.append(b"%010d 00000 n \n" % self._streamed_offsets[object_number - self._first_streamed])
            else:
                lines.append(b"%010d 00000 n \n" % self._offsets[object_number])
            if len(lines) >= 4096:
                self._write(b"".join(lines))
                lines.clear()
        self._write(b"".join(lines))
        identifier = self._digest.hexdigest().encode()
        self._write(b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R /ID [<%s> <%s>] >>\n"
                    b"startxref\n%d\n%%%%EOF\n"
                    % (size, self._forms.catalog_number, self._forms.info_number,
                       identifier, identifier, xref_offset))
