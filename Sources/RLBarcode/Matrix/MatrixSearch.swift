/// Where one matrix reader searches a frame, and what the frame's earlier
/// stages measured there for it (``MatrixReader/read(_:into:)``).
struct MatrixSearch {
    /// The frame, or the half-size copy of part of it.
    var image: LumaView
    /// The part of `image` to search; the whole of it when nil.
    var bounds: PixelRect?
    /// Still-picture depth: symbols that fail to decode are sampled again
    /// in other ways.
    var thorough: Bool
    /// The areas of 2D texture, found once for every reader (nil: the
    /// reader finds its own).
    var regions: MatrixRegionDetector? = nil
    /// The areas' block thresholds, when measured once for several readers.
    var prepared: AreaThresholds? = nil
    /// The detection pass's gradient cells (PDF417 and MicroPDF417 follow
    /// the bars they show).
    var cells: CellTensors? = nil
    /// The insides of codes read already in this frame (Data Matrix
    /// examines no component there).
    var avoiding: [PixelRect] = []
    /// How many Data Matrix components the search may examine.
    var examineBudget = DMDetector.Options().examineBudget
}
