"""Sheets stage: card faces laid out on paper, written as print-ready PDFs and manifests.

The public surface:

- :func:`~generator.sheets.style.load_style` and
  :func:`~generator.sheets.style.find_paper`: paper sizes and the look of marks,
  from ``sheets.yaml``;
- :class:`~generator.sheets.geometry.SheetSettings`,
  :func:`~generator.sheets.geometry.plan_layout` and
  :func:`~generator.sheets.geometry.plan_pages`: the pure geometry;
- :func:`~generator.sheets.press.press_deck`: a deck's PDF and manifest;
- :func:`~generator.sheets.calibration.write_calibration`: the sheet that
  measures a printer's front/back misregistration;
- :class:`~generator.sheets.renderer.CardRenderer`: what sheets need from the
  card drawing stage.
"""
