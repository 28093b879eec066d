"""Sheets stage: card faces laid out on paper, written as print-ready PDFs and manifests.

The public surface:

- :func:`~generator.sheets.style.load_style` and
  :func:`~generator.sheets.style.find_paper`: paper sizes and the look of marks,
  from ``sheets.yaml``;
- :class:`~generator.sheets.geometry.SheetSettings`,
  :func:`~generator.sheets.geometry.plan_layout` and
  :func:`~generator.sheets.geometry.plan_pages`: the pure geometry;
- :func:`~generator.sheets.cutting.load_cutters` and
  :func:`~generator.sheets.cutting.place_marks`: a cutting machine's registration
  marks, from ``cutters.yaml`` (a build for a cutter fits its grid between them);
- :func:`~generator.sheets.press.press_deck`: a deck's PDF and manifest, and the
  cut file (:mod:`~generator.sheets.cutfile`) drawn from the same layout; or only some
  copies of it (a :class:`~generator.sheets.instructions.PrintRun`), a reprint behind
  its instruction pages (:mod:`~generator.sheets.instructions`);
- :func:`~generator.sheets.calibration.write_calibration`: the sheet that
  measures a printer's front/back misregistration (and
  :func:`~generator.sheets.calibration.write_cutter_calibration`, a cutter's test cut);
- :class:`~generator.sheets.renderer.CardRenderer`: what sheets need from the
  card drawing stage.
"""
