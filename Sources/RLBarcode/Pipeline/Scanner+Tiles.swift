/// The tiles of a frame outside its active region, one in turn every few video frames.
extension Scanner {
    /// The tile for turn `turn` (0, 1, 2...) of those that cover the frame
    /// outside the active region over several frames; nil when the region
    /// covers the frame. The tiles are a grid of up to 4 columns of 320
    /// pixels or more and up to 3 rows of 180 pixels or more (a 1080p
    /// frame: 12 tiles of 480 by 360); every other round the grid is
    /// shifted by half a tile, with a column and a row more to cover the
    /// frame's edges, so that a code cut by one round's tile edges lies
    /// whole in a tile of the next. Tiles inside the region are left out;
    /// the turns go through the rest, round after round.
    func tile(_ frame: PixelRect, outside region: PixelRect, turn: Int) -> PixelRect? {
        let columns = min(4, max(1, frame.width / 320)), rows = min(3, max(1, frame.height / 180))
        let (tw, th) = Scanner.tileSize(frame)
        // The k-th tile of both rounds that is not inside the region
        // (k < 0: how many there are).
        func walk(_ k: Int) -> (count: Int, tile: PixelRect?) {
            var count = 0
            for round in 0..<2 {
                let shifted = round == 1
                let ox = shifted && columns > 1 ? tw / 2 : 0, oy = shifted && rows > 1 ? th / 2 : 0
                let across = ox > 0 ? columns + 1 : columns, down = oy > 0 ? rows + 1 : rows
                for t in 0..<(across * down) {
                    let cx = t % across, cy = t / across
                    let tile = PixelRect(
                        x0: max(0, cx * tw - ox), y0: max(0, cy * th - oy),
                        x1: min(frame.x1, (cx + 1) * tw - ox), y1: min(frame.y1, (cy + 1) * th - oy))
                    guard tile.width >= 16, tile.height >= 8 else { continue }
                    let inside =
                        tile.x0 >= region.x0 && tile.x1 <= region.x1
                        && tile.y0 >= region.y0 && tile.y1 <= region.y1
                    if inside { continue }
                    if count == k { return (count, tile) }
                    count += 1
                }
            }
            return (count, nil)
        }
        let total = walk(-1).count
        guard total > 0 else { return nil }
        return walk(((turn % total) + total) % total).tile
    }

    /// The size of the tiles of ``tile(_:outside:turn:)``: the frame in up
    /// to 4 columns of 320 pixels or more and up to 3 rows of 180 or more.
    static func tileSize(_ frame: PixelRect) -> (width: Int, height: Int) {
        let columns = min(4, max(1, frame.width / 320)), rows = min(3, max(1, frame.height / 180))
        return ((frame.width + columns - 1) / columns, (frame.height + rows - 1) / rows)
    }

    /// What is measured and searched with `tile`: the tile and half a
    /// tile's width and height around it, inside `frame`. Only the linear
    /// candidates centred in the tile are read (each is centred in one
    /// tile of a round), and every code centred in it whose half-length
    /// is under half a tile plus its centre's distance from the tile's
    /// edges lies wholly inside: over the two rounds, whose tiles are half
    /// a tile apart, every code up to one and a half tiles long (480
    /// pixels in a 720p frame, 720 in a 1080p one) is seen whole in one
    /// tile or another.
    func tileSurroundings(_ tile: PixelRect, in frame: PixelRect) -> PixelRect {
        let (tw, th) = Scanner.tileSize(frame)
        return PixelRect(
            x0: max(frame.x0, tile.x0 - tw / 2), y0: max(frame.y0, tile.y0 - th / 2),
            x1: min(frame.x1, tile.x1 + tw / 2), y1: min(frame.y1, tile.y1 + th / 2))
    }
}
