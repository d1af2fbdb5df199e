import RLBarcode

/// What a scan session has seen, for the `barcode-session` message, and the
/// session's status, for `barcode-status`.
///
/// A session runs from the start of streaming (or the last
/// `clear-results`) to EOS, the next `clear-results` or the pipeline's stop,
/// whichever comes first. Unlike the
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
    /// The part of a long code the status shows: held from frame to frame
    /// while the code is panned (a part is not read in every frame) until
    /// the code is read or no part of it was read for `lost-after`.
    private var heldPartial = ""
    /// Running time of the latest frame that read ``heldPartial``.
    private var partialSeen: UInt64 = 0
    /// The session's message was posted (at EOS): nothing more until a
    /// frame is analysed again (a new stream after a flush).
    private(set) var ended = false

    /// Creates an empty session with room for typical scenes.
    init() { codes.reserveCapacity(32) }

    /// Records a code read in the current frame and what tracking made of it.
    mutating func record(_ result: BarcodeResult, _ sighting: CodeTracker.Sighting) {
        if !heldPartial.isEmpty && ScanSession.isPart(heldPartial, of: result.text) { heldPartial = "" }
        if let i = codes.firstIndex(where: { $0.symbology == result.symbology && $0.text == result.text }) {
            codes[i].lastID = sighting.id
            codes[i].symbologyIdentifier = result.symbologyIdentifier
            codes[i].frames &+= 1
            codes[i].lastSeen = max(codes[i].lastSeen, sighting.lastSeen)
            if sighting.isNew { codes[i].appearances &+= 1 }
        } else {
            codes.append(
                Code(
                    symbology: result.symbology, text: result.text,
                    symbologyIdentifier: result.symbologyIdentifier, lastID: sighting.id,
                    appearances: 1, frames: 1, firstSeen: sighting.firstSeen, lastSeen: sighting.lastSeen))
        }
    }

    /// The status after a frame at running time `now` that read `read` codes
    /// (`new` of them new) and saw `candidates` code-like regions; `partial`
    /// is the part of a long code the frame read ("" when none).
    ///
    /// The partial text holds while the code is panned, until the code is
    /// read or no part of it was read for `lostAfter` ns; a part of a code
    /// read within `lostAfter` (its end leaving the view) is no partial
    /// code. While a partial text holds, guidance is 2 and the wait for
    /// guidance 1 starts over.
    mutating func status(
        now: UInt64, read: Int, new: Int, candidates: Int, partial: String,
        lostAfter: UInt64
    ) -> Status {
        ended = false
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
        updatePartial(partial, now: now, lostAfter: lostAfter)
        if !inRange || !heldPartial.isEmpty { inRangeSince = inRange ? now : nil }
        var s = Status()
        s.inRange = inRange
        s.partial = heldPartial
        if !heldPartial.isEmpty {
            s.guidance = 2
        } else if inRange, let since = inRangeSince, now >= since, now - since >= ScanSession.guidanceDelay {
            s.guidance = 1
        }
        s.found = codes.reduce(0) { $0 &+ $1.appearances }
        s.newFound = UInt32(clamping: new)
        return s
    }

    /// Holds `partial` when it is new text, drops the held text once it
    /// went unread for `lostAfter`.
    private mutating func updatePartial(_ partial: String, now: UInt64, lostAfter: UInt64) {
        let recentlyRead =
            !partial.isEmpty
            && codes.contains { c in
                now >= c.lastSeen && now - c.lastSeen <= lostAfter && ScanSession.isPart(partial, of: c.text)
            }
        if !partial.isEmpty && !recentlyRead {
            heldPartial = partial
            partialSeen = now
        } else if !heldPartial.isEmpty && (now < partialSeen || now - partialSeen > lostAfter) {
            heldPartial = ""
        }
    }

    /// Whether `partial` (a code's start, or `…` and its end) is part of
    /// the code `text`. A start read up to the check character, with only
    /// the stop pattern out of view, shows that character after the text
    /// (two digits in Code 128's code set C).
    static func isPart(_ partial: String, of text: String) -> Bool {
        if partial.hasPrefix("…") { return text.hasSuffix(partial.dropFirst()) }
        return text.hasPrefix(partial) || (partial.hasPrefix(text) && partial.count <= text.count + 2)
    }

    /// Marks `status` as posted.
    mutating func didPost(_ status: Status) { posted = status }

    /// Marks the session as reported (at EOS or when the pipeline stops).
    mutating func end() { ended = true }
}
