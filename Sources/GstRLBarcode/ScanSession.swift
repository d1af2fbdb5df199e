import RLBarcode

/// What a scan session has seen, for the `barcode-session` message, and the
/// session's status, for `barcode-status`.
///
/// A session runs from the start of streaming (or the last
/// `clear-results`) to EOS (or the next `clear-results`). Unlike the
/// ``CodeTracker``, which forgets a code once it is lost, the session keeps
/// every code it saw: how many times it appeared (a code that was lost and
/// seen again appears again), in how many frames, and when it was first and
/// last seen. Owned by the streaming thread.
struct ScanSession {
    /// One code of the session, by symbology and text.
    struct Code {
        /// The symbology.
        var symbology: Symbology
        /// The decoded text.
        var text: String
        /// The AIM identifier of its latest reading.
        var symbologyIdentifier: String
        /// The tracking id of its latest appearance.
        var lastID: UInt32
        /// How many times it came into view (new sightings).
        var appearances: UInt32
        /// How many frames saw it.
        var frames: UInt64
        /// Running time (ns) of its first sighting.
        var firstSeen: UInt64
        /// Running time (ns) of its latest sighting.
        var lastSeen: UInt64
    }

    /// The session's status, as the `barcode-status` message carries it.
    struct Status: Equatable {
        /// A code-like region is in view but no code was read lately.
        var inRange = false
        /// 0: none; 1: a code has been in range, unread, for a while; 2: part
        /// of a long code is read (see ``partial``).
        var guidance: Int32 = 0
        /// The part of a long code read so far ("" when none).
        var partial = ""
        /// Codes found in the session so far (appearances).
        var found: UInt32 = 0
        /// Codes first found in the frame this status describes.
        var newFound: UInt32 = 0

        /// Whether `other` differs in what users wait for (everything but
        /// `newFound`, which only accompanies a change of `found`).
        func differs(from other: Status) -> Bool {
            inRange != other.inRange || guidance != other.guidance || partial != other.partial
                || found != other.found
        }
    }

    /// How long a code must stay in range unread before guidance 1, in ns.
    static let guidanceDelay: UInt64 = 1_500_000_000
    /// How long "in range" holds after the last frame that showed an unread
    /// code-like region, in ns (so that one frame without it does not flip it).
    static let inRangeHold: UInt64 = 250_000_000

    /// The codes, in the order they were first seen.
    private(set) var codes: [Code] = []
    /// The status last posted (or the initial one).
    private(set) var posted = Status()
    /// Running time since which an unread code-like region has been in view.
    private var inRangeSince: UInt64?
    /// Running time of the latest frame with an unread code-like region.
    private var lastInRange: UInt64?
    /// Running time of the latest frame that read a code.
    private var lastRead: UInt64?
    /// The session's message was posted (at EOS): nothing more until a new session.
    private(set) var ended = false

    /// Creates an empty session with room for typical scenes.
    init() { codes.reserveCapacity(32) }

    /// Records a code read in the current frame and what tracking made of it.
    mutating func record(_ result: BarcodeResult, _ sighting: CodeTracker.Sighting) {
        if let i = codes.firstIndex(where: { $0.symbology == result.symbology && $0.text == result.text }) {
            codes[i].lastID = sighting.id
            codes[i].symbologyIdentifier = result.symbologyIdentifier
            codes[i].frames &+= 1
            codes[i].lastSeen = max(codes[i].lastSeen, sighting.lastSeen)
            if sighting.isNew { codes[i].appearances &+= 1 }
        } else {
            codes.append(Code(symbology: result.symbology, text: result.text,
                              symbologyIdentifier: result.symbologyIdentifier, lastID: sighting.id,
                              appearances: 1, frames: 1, firstSeen: sighting.firstSeen, lastSeen: sighting.lastSeen))
        }
    }

    /// The status after a frame at running time `now` that read `read` codes
    /// (`new` of them new) and saw `candidates` code-like regions; `partial`
    /// is the part of a long code read so far.
    mutating func status(now: UInt64, read: Int, new: Int, candidates: Int, partial: String) -> Status {
        if read > 0 { lastRead = now }
        let unread = candidates > 0 && read == 0
        if unread {
            if inRangeSince == nil { inRangeSince = now }
            lastInRange = now
        }
        var inRange = false
        if let last = lastInRange, now >= last, now - last <= ScanSession.inRangeHold {
            // A code read since then ends "in range".
            inRange = lastRead.map { $0 < last } ?? true
        }
        if !inRange { inRangeSince = nil }
        var s = Status()
        s.inRange = inRange
        s.partial = partial
        if !partial.isEmpty {
            s.guidance = 2
        } else if inRange, let since = inRangeSince, now >= since, now - since >= ScanSession.guidanceDelay {
            s.guidance = 1
        }
        s.found = codes.reduce(0) { $0 &+ $1.appearances }
        s.newFound = UInt32(clamping: new)
        return s
    }

    /// Marks `status` as posted.
    mutating func didPost(_ status: Status) { posted = status }

    /// Marks the session as reported at EOS.
    mutating func end() { ended = true }
}
