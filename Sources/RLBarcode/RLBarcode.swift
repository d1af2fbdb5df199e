/// # RLBarcode
///
/// The decoding engine: finds and decodes linear and matrix barcodes in
/// 8-bit luma frames, in plain Swift with no dependency but the standard
/// library. One ``Scanner`` per streaming thread, given a ``LumaView`` of
/// each frame, returns a ``BarcodeResult`` per code.
///
/// The folders are the stages of a scan, in order:
///
/// - `API/`: what applications use: ``Scanner``, ``ScanOptions``
///   (``Effort``, ``Orientation``), ``BarcodeResult``, ``Symbology``,
///   ``LumaView``.
/// - `Pipeline/`: the scan of a frame: the plan per effort, the tiles
///   outside an active region, still pictures, the area scan stage by
///   stage, the helper thread, the sweeps, the line work of a thread
///   (`LineWorker`).
/// - `Detect/`: the detection pass over gradient cells: regions of bars
///   with their direction, and the areas with 2D texture.
/// - `OneD/`: edges from grey levels along a scan line, then every
///   linear reader (EAN/UPC, Code 128, Code 39, Code 93, ITF, Codabar,
///   DataBar), and codes read in parts across frames.
/// - `Matrix/`: the matrix stage's wiring: every matrix reader behind the
///   `MatrixReader` contract, run by `MatrixReaders` with a table of each
///   search's state.
/// - `QR/`, `DataMatrix/`, `Aztec/`, `PDF417/`: each matrix symbology's
///   reader, detector, sampling, decoder and bit stream, citing its
///   ISO/IEC standard.
/// - `GS1/`: GS1 element strings and their human-readable form.
/// - `Core/`: what the stages share: pixel rectangles and scan lines,
///   sampling, block thresholds, perspective transforms, Reed-Solomon,
///   votes and stacked rows, scratch memory, clocks and cancellation.
