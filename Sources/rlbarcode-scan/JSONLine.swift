import Foundation

/// The `--jsonl` form of a report: one JSON object on one line, written by
/// Foundation's `JSONEncoder` with the keys sorted, so that the same codes
/// always give the same bytes.
///
/// Every picture and video line has `file`, `symbology`, `symbology_id`,
/// `text`, `bytes` (base64), `quality`, `addon` and `extended` (empty when
/// there is none), `corners`, `orientation`, `inverted` and `mirrored`;
/// `sequence` ({index, total, id}) only for a structured-append symbol.
/// Video lines also have `frame`, `pts`, `stream_time`, `running_time`, `id`,
/// `first_seen`, `last_seen`, `new`, and `duration` when the frame has one.
/// Fields that do not apply to still pictures are left out, never null.
struct JSONLine: Encodable {
    /// The report written.
    let report: Report

    /// The JSON object names, as the `barcode` message's fields with `_`.
    enum Key: String, CodingKey {
        case file, symbology, text, bytes, addon, extended, corners, orientation, quality, inverted, mirrored
        case sequence, frame, pts, id, new
        case symbologyID = "symbology_id", streamTime = "stream_time", runningTime = "running_time"
        case duration, firstSeen = "first_seen", lastSeen = "last_seen"
    }

    /// A structured-append position.
    struct Sequence: Encodable {
        /// The symbol's place, from 0.
        let index: Int
        /// The sequence's length.
        let total: Int
        /// What ties the sequence's symbols together.
        let id: String
    }

    func encode(to encoder: any Encoder) throws {
        let r = report
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(r.file, forKey: .file)
        try c.encode(r.symbology, forKey: .symbology)
        try c.encode(r.text, forKey: .text)
        try c.encodeIfPresent(r.bytes.map { Data($0).base64EncodedString() }, forKey: .bytes)
        try c.encode(r.addon, forKey: .addon)
        try c.encode(r.extended, forKey: .extended)
        if !r.corners.isEmpty { try c.encode(r.corners, forKey: .corners) }
        try c.encodeIfPresent(r.orientation, forKey: .orientation)
        try c.encodeIfPresent(r.symbologyID, forKey: .symbologyID)
        try c.encodeIfPresent(r.quality, forKey: .quality)
        try c.encodeIfPresent(r.inverted, forKey: .inverted)
        try c.encodeIfPresent(r.mirrored, forKey: .mirrored)
        try c.encodeIfPresent(
            r.sequence.map { Sequence(index: $0.index, total: $0.total, id: $0.id) },
            forKey: .sequence)
        try c.encodeIfPresent(r.frame, forKey: .frame)
        try c.encodeIfPresent(r.pts, forKey: .pts)
        try c.encodeIfPresent(r.streamTime, forKey: .streamTime)
        try c.encodeIfPresent(r.runningTime, forKey: .runningTime)
        try c.encodeIfPresent(r.duration, forKey: .duration)
        try c.encodeIfPresent(r.id, forKey: .id)
        try c.encodeIfPresent(r.firstSeen, forKey: .firstSeen)
        try c.encodeIfPresent(r.lastSeen, forKey: .lastSeen)
        try c.encodeIfPresent(r.isNew, forKey: .new)
    }

    /// The line for `report` (without the line break).
    static func text(of report: Report) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(JSONLine(report: report)), as: UTF8.self)
        } catch {
            // Only strings, integers, booleans and arrays of them are
            // encoded: this cannot fail.
            preconditionFailure("JSON encoding failed: \(error)")
        }
    }
}
