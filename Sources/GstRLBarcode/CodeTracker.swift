import RLBarcode

/// The codes of the current session: who is who from frame to frame.
///
/// A code is keyed by symbology, text and approximate position, so two
/// identical codes far apart are two codes. Each tracked code keeps a stable
/// id, the running time it was first and last seen, and is forgotten when it
/// went unseen for longer than `lost-after` in the frames that looked where
/// it was (``beginFrame(now:lostAfter:scanned:)``), or sooner when a code of
/// other content takes its place (``endFrame()``); seen again, it is new
/// again.
///
/// Owned by the streaming thread. The table is reused from frame to frame:
/// after warm-up, tracking allocates nothing but the strings of new codes.
struct CodeTracker {
    /// One tracked code.
    struct Entry {
        /// Stable id while tracked (never 0).
        var id: UInt32
        /// The symbology.
        var symbology: Symbology
        /// The decoded text.
        var text: String
        /// Horizontal centre of the code in frame pixels.
        var centerX: Double
        /// Vertical centre of the code in frame pixels.
        var centerY: Double
        /// The code's bounding box width and height in pixels.
        var width: Double
        var height: Double
        /// The code's size (bounding box diagonal) in pixels.
        var size: Double { (width * width + height * height).squareRoot() }
        /// Running time (ns) of the first sighting.
        var firstSeen: UInt64
        /// Running time (ns) of the latest sighting.
        var lastSeen: UInt64
        /// How many frames saw it.
        var frames: UInt64
        /// The frame number of the latest sighting (to match each entry once per frame).
        var lastFrame: UInt64
        /// Time (ns) since the latest sighting in the frames that looked
        /// where the code was: what counts toward `lost-after`.
        var unseen: UInt64 = 0
    }

    /// What tracking says about one result of the current frame.
    struct Sighting {
        /// The code's id.
        var id: UInt32
        /// Running time of the first sighting.
        var firstSeen: UInt64
        /// Running time of this sighting.
        var lastSeen: UInt64
        /// True when this frame starts the code's track.
        var isNew: Bool
    }

    /// The most codes kept at once; beyond it, the longest unseen is dropped.
    static let capacity = 256

    /// The tracked codes.
    private(set) var entries: [Entry] = []
    /// The id the next new code gets.
    private var nextID: UInt32 = 1
    /// Counts frames, to claim each entry at most once per frame.
    private var frameNumber: UInt64 = 0
    /// The running time of the previous frame.
    private var lastNow: UInt64?

    /// Creates an empty table with room reserved for typical scenes.
    init() { entries.reserveCapacity(32) }

    /// Forgets every code: all are new again.
    mutating func clear() {
        entries.removeAll(keepingCapacity: true)
    }

    /// Starts a frame at running time `now`: the time since the previous
    /// frame counts as unseen time for each code whose centre the frame's
    /// scan looked at (`scanned`), and codes unseen for more than
    /// `lostAfter` nanoseconds are dropped. A code outside an active
    /// region, looked at only when its tile's turn comes, thus ages only
    /// in those frames. A jump back in time (a new segment), or forward by
    /// more than `lostAfter` (a seek, a pause), counts as unseen time for
    /// every code.
    mutating func beginFrame(now: UInt64, lostAfter: UInt64, scanned: ScannedArea) {
        frameNumber &+= 1
        let previous = lastNow ?? now
        lastNow = now
        let back = now < previous
        let step = back ? previous - now : now - previous
        let jump = back || step > lostAfter
        for i in entries.indices where jump || scanned.contains(x: entries[i].centerX, y: entries[i].centerY) {
            let unseen = entries[i].unseen
            entries[i].unseen = step > UInt64.max - unseen ? .max : unseen + step
        }
        entries.removeAll { $0.unseen > lostAfter }
    }

    /// Records one code found in the current frame.
    ///
    /// - Parameters:
    ///   - symbology: the code's symbology.
    ///   - text: its decoded text.
    ///   - centerX: its horizontal centre in pixels.
    ///   - centerY: its vertical centre in pixels.
    ///   - width: its bounding box width in pixels.
    ///   - height: its bounding box height in pixels.
    ///   - now: the frame's running time.
    mutating func observe(
        symbology: Symbology, text: String, centerX: Double, centerY: Double,
        width: Double, height: Double, now: UInt64
    ) -> Sighting {
        let size = (width * width + height * height).squareRoot()
        // The nearest unclaimed entry with the same content, close enough to
        // be the same code having moved a little.
        var best = -1
        var bestDistance = Double.infinity
        for i in entries.indices where entries[i].lastFrame != frameNumber {
            let e = entries[i]
            guard e.symbology == symbology, e.text == text else { continue }
            let dx = e.centerX - centerX, dy = e.centerY - centerY
            let d = (dx * dx + dy * dy).squareRoot()
            // Between frames a code moves a fraction of its size and keeps
            // about its size; a jump or a sudden change of scale is another
            // appearance (another code of the same content, or a new scene).
            let reach = max(24, 0.5 * max(e.size, size))
            let ratio = max(e.size, size) / max(1, min(e.size, size))
            if d <= reach && ratio <= 1.5 && d < bestDistance { best = i; bestDistance = d }
        }
        if best >= 0 {
            entries[best].centerX = centerX
            entries[best].centerY = centerY
            entries[best].width = width
            entries[best].height = height
            entries[best].lastSeen = now
            entries[best].unseen = 0
            entries[best].frames &+= 1
            entries[best].lastFrame = frameNumber
            let e = entries[best]
            return Sighting(id: e.id, firstSeen: e.firstSeen, lastSeen: now, isNew: false)
        }
        if entries.count >= CodeTracker.capacity,
            let oldest = entries.indices.min(by: { entries[$0].lastSeen < entries[$1].lastSeen })
        {
            entries.remove(at: oldest)
        }
        let id = nextID
        nextID = nextID == UInt32.max ? 1 : nextID + 1
        entries.append(
            Entry(
                id: id, symbology: symbology, text: text, centerX: centerX, centerY: centerY,
                width: width, height: height, firstSeen: now, lastSeen: now, frames: 1,
                lastFrame: frameNumber))
        return Sighting(id: id, firstSeen: now, lastSeen: now, isNew: true)
    }

    /// Ends the current frame, after every code found in it was observed:
    /// a code that the frame did not show where a code of other content now
    /// lies (bounding boxes overlapping by half of their union or more) has
    /// left the view, however recently it was seen. Two codes never lie one
    /// on the other, so one taking the other's place means the first is
    /// gone: an item replaced by another under a fixed camera, or a cut to
    /// another scene. Seen again, it is a new appearance.
    mutating func endFrame() {
        var i = entries.count - 1
        while i >= 0 {
            if entries[i].lastFrame != frameNumber && isDisplaced(i) { entries.remove(at: i) }
            i -= 1
        }
    }

    /// Whether a code seen in the current frame, of other content than
    /// entry `i`, covers half of their union or more.
    private func isDisplaced(_ i: Int) -> Bool {
        let e = entries[i]
        for o in entries where o.lastFrame == frameNumber && (o.symbology != e.symbology || o.text != e.text) {
            if CodeTracker.overlap(e, o) >= 0.5 { return true }
        }
        return false
    }

    /// Intersection over union of two codes' bounding boxes (0 when either
    /// has no area).
    static func overlap(_ a: Entry, _ b: Entry) -> Double {
        let ix =
            min(a.centerX + a.width / 2, b.centerX + b.width / 2)
            - max(a.centerX - a.width / 2, b.centerX - b.width / 2)
        let iy =
            min(a.centerY + a.height / 2, b.centerY + b.height / 2)
            - max(a.centerY - a.height / 2, b.centerY - b.height / 2)
        guard ix > 0, iy > 0 else { return 0 }
        let inter = ix * iy
        let union = a.width * a.height + b.width * b.height - inter
        return union > 0 ? inter / union : 0
    }
}
