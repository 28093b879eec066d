"""The PDF/X step: a shop PDF's OutputIntent and identification keys, written with pypdf.

reportlab writes the pages; this step adds, as one incremental update appended to
its file, what makes the file PDF/X:

- an OutputIntent (``/S /GTS_PDFX``) naming the output condition (``FOGRA39``),
  with the preset's ICC profile embedded as its DestOutputProfile;
- the document information keys ``GTS_PDFXVersion`` (and, for PDF/X-1a,
  ``GTS_PDFXConformance``), with ``Trapped`` set to False;
- for PDF/X-4, XMP metadata saying the same, and ``/Version /1.6`` in the catalog.

Only the catalog and the information dictionary are read from reportlab's file, and
only they and the new objects are written again, with a classic cross-reference
table (PDF 1.4 has no cross-reference streams), so the step costs the same for a
deck of 10 cards or 10,000. The file's identifier is kept: the same pages give the
same bytes.
"""

from __future__ import annotations

import io
import uuid
import zlib
from xml.sax.saxutils import escape

from pypdf import PdfReader
from pypdf.generic import (
    ArrayObject,
    DictionaryObject,
    IndirectObject,
    NameObject,
    NumberObject,
    PdfObject,
    StreamObject,
    TextStringObject,
)

from generator.errors import consecutive_runs
from generator.shops.inks import PressInks
from generator.shops.presets import Preset
from generator.shops.rules import standard_of

XMP_NAMESPACE_ID = "W5M0MpCehiHzreSzNTczkc9d"
"""The id every XMP packet carries (Adobe's XMP specification, part 1, 7.3)."""


def mark_pdfx(data: bytes, preset: Preset, inks: PressInks) -> bytes:
    """``data`` (reportlab's PDF) with the preset's OutputIntent and PDF/X keys added."""
    standard = standard_of(preset)
    reader = PdfReader(io.BytesIO(data))
    trailer = reader.trailer
    root_ref, info_ref = trailer.raw_get("/Root"), trailer.raw_get("/Info")
    assert isinstance(root_ref, IndirectObject) and isinstance(info_ref, IndirectObject), "reportlab writes both"
    root, info = _copied(root_ref.get_object()), _copied(info_ref.get_object())
    next_number = int(trailer["/Size"])  # type: ignore[call-overload]  # a trailer's /Size is a number

    profile = StreamObject()
    profile.set_data(zlib.compress(inks.profile_bytes))
    profile.update({NameObject("/N"): NumberObject(4), NameObject("/Filter"): NameObject("/FlateDecode")})
    profile_number, intent_number = next_number, next_number + 1
    intent = DictionaryObject({
        NameObject("/Type"): NameObject("/OutputIntent"),
        NameObject("/S"): NameObject("/GTS_PDFX"),
        NameObject("/OutputConditionIdentifier"): TextStringObject(preset.condition or ""),
        NameObject("/OutputCondition"): TextStringObject(preset.condition or ""),
        NameObject("/RegistryName"): TextStringObject(preset.registry),
        NameObject("/Info"): TextStringObject(_profile_description(inks)),
        NameObject("/DestOutputProfile"): IndirectObject(profile_number, 0, reader),
    })
    root[NameObject("/OutputIntents")] = ArrayObject([IndirectObject(intent_number, 0, reader)])
    info[NameObject("/GTS_PDFXVersion")] = TextStringObject(standard.version_key)
    if standard.conformance_key:
        info[NameObject("/GTS_PDFXConformance")] = TextStringObject(standard.conformance_key)
    info[NameObject("/Trapped")] = NameObject("/False")
    objects: list[tuple[int, PdfObject]] = [(root_ref.idnum, root), (info_ref.idnum, info),
                                            (profile_number, profile), (intent_number, intent)]
    if standard.needs_xmp:
        metadata = StreamObject()
        metadata.set_data(xmp_packet(info, standard.version_key, trailer).encode("utf-8"))
        metadata.update({NameObject("/Type"): NameObject("/Metadata"), NameObject("/Subtype"): NameObject("/XML")})
        objects.append((next_number + 2, metadata))
        root[NameObject("/Metadata")] = IndirectObject(next_number + 2, 0, reader)
    if standard.pdf_version > "1.4":
        root[NameObject("/Version")] = NameObject(f"/{standard.pdf_version}")
    return data + _increment(objects, len(data), reader, max(number for number, _ in objects) + 1)


def _copied(found: object) -> DictionaryObject:
    """A copy of a dictionary read from the file, to change and write again."""
    if not isinstance(found, DictionaryObject):
        raise ValueError("the catalog and the document information of a PDF are dictionaries")
    return DictionaryObject(found)


def _profile_description(inks: PressInks) -> str:
    description = inks.profile.profile.profile_description
    return (description or "").strip() or inks.preset.condition or ""


def _increment(objects: list[tuple[int, PdfObject]], offset: int, reader: PdfReader, size: int) -> bytes:
    """The objects, a cross-reference table for them, and a trailer pointing back at the
    original's (``/Prev``)."""
    out = io.BytesIO()
    positions: dict[int, int] = {}
    for number, obj in sorted(objects, key=lambda item: item[0]):
        positions[number] = offset + out.tell()
        out.write(b"%d 0 obj\n" % number)
        obj.write_to_stream(out)
        out.write(b"\nendobj\n")
    xref = offset + out.tell()
    out.write(b"xref\n")
    for first, last in consecutive_runs(positions):  # one subsection a run of consecutive numbers
        out.write(b"%d %d\n" % (first, last - first + 1))
        for number in range(first, last + 1):
            out.write(b"%010d 00000 n \n" % positions[number])
    trailer = reader.trailer
    new_trailer = DictionaryObject({
        NameObject("/Size"): NumberObject(size),
        NameObject("/Root"): trailer.raw_get("/Root"),
        NameObject("/Info"): trailer.raw_get("/Info"),
        NameObject("/Prev"): NumberObject(reader._startxref),
    })
    if "/ID" in trailer:
        new_trailer[NameObject("/ID")] = trailer["/ID"]
    out.write(b"trailer\n")
    new_trailer.write_to_stream(out)
    out.write(b"\nstartxref\n%d\n%%%%EOF\n" % xref)
    return out.getvalue()


def xmp_packet(info: DictionaryObject, version: str, trailer: DictionaryObject) -> str:
    """XMP metadata repeating the information dictionary, as PDF/X-4 asks."""
    def text(key: str) -> str:
        return escape(str(info.get(key, "")))

    created = _xmp_date(str(info.get("/CreationDate", "")))
    modified = _xmp_date(str(info.get("/ModDate", ""))) or created
    identifier = trailer.get("/ID")
    first = _bytes(identifier[0]) if identifier else b""
    document = uuid.UUID(bytes=(first + bytes(16))[:16]) if first else uuid.uuid5(uuid.NAMESPACE_URL, text("/Title"))
    return f"""<?xpacket begin="\ufeff" id="{XMP_NAMESPACE_ID}"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">{text("/Title")}</rdf:li></rdf:Alt></dc:title>
   <dc:creator><rdf:Seq><rdf:li>{text("/Author")}</rdf:li></rdf:Seq></dc:creator>
   <xmp:CreateDate>{created}</xmp:CreateDate>
   <xmp:ModifyDate>{modified}</xmp:ModifyDate>
   <xmp:MetadataDate>{modified}</xmp:MetadataDate>
   <xmp:CreatorTool>{text("/Creator")}</xmp:CreatorTool>
   <pdf:Producer>{text("/Producer")}</pdf:Producer>
   <pdf:Trapped>False</pdf:Trapped>
   <pdfxid:GTS_PDFXVersion>{escape(version)}</pdfxid:GTS_PDFXVersion>
   <xmpMM:DocumentID>uuid:{document}</xmpMM:DocumentID>
   <xmpMM:InstanceID>uuid:{document}</xmpMM:InstanceID>
   <xmpMM:VersionID>1</xmpMM:VersionID>
   <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""


def _bytes(value: object) -> bytes:
    """A PDF string's bytes, whether pypdf read it as text or as bytes."""
    original = getattr(value, "original_bytes", None)
    return bytes(original) if original is not None else bytes(value) if isinstance(value, bytes) else b""


def _xmp_date(pdf_date: str) -> str:
    """``D:20000101000000+00'00'`` as XMP writes it, ``2000-01-01T00:00:00+00:00``."""
    digits = pdf_date[2:] if pdf_date.startswith("D:") else pdf_date
    if len(digits) < 14 or not digits[:14].isdigit():
        return ""
    stamp = f"{digits[0:4]}-{digits[4:6]}-{digits[6:8]}T{digits[8:10]}:{digits[10:12]}:{digits[12:14]}"
    zone = digits[14:].replace("'", "")
    if zone in ("", "Z"):
        return stamp + "Z"
    return f"{stamp}{zone[0]}{zone[1:3]}:{zone[3:5] or '00'}"
