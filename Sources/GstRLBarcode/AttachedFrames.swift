import CGStreamer
import Synchronization

/// The frames that `barcode` messages carry (`attach-frame`) and that are
/// still alive: on the bus, not yet read, or kept by the application.
///
/// A frame in a message holds its buffer (and the buffer pool then
/// allocates another), so a bus nobody reads would grow by a frame a
/// reported code. A message gets its frame only while fewer than
/// ``maxFrames`` frames and at most ``maxBytes`` bytes of them are alive
/// (one frame always, however large, when none is); otherwise it is
/// posted without the `frame` field. A sample leaves the count when it is
/// freed (a weak reference on it), from whatever thread frees it.
final class AttachedFrames: Sendable {
    /// Frames alive at most.
    static let maxFrames = 16
    /// Bytes of frames alive at most (beyond the first frame).
    static let maxBytes = 64 << 20

    private let frames = Atomic<Int>(0)
    private let bytes = Atomic<Int>(0)

    /// Frames alive now.
    var count: Int { frames.load(ordering: .relaxed) }

    /// A sample of `buffer` with `caps` and `segment`, counted until it is
    /// freed; nil when the limits leave no room for it.
    func sample(
        _ buffer: UnsafeMutablePointer<GstBuffer>, caps: UnsafeMutablePointer<GstCaps>,
        segment: UnsafeMutablePointer<GstSegment>
    ) -> OpaquePointer? {
        let size = Int(gst_buffer_get_size(buffer))
        let alive = frames.wrappingAdd(1, ordering: .relaxed).oldValue
        let held = bytes.wrappingAdd(size, ordering: .relaxed).oldValue
        guard alive == 0 || (alive < Self.maxFrames && held + size <= Self.maxBytes),
            let sample = gst_sample_new(buffer, caps, segment, nil)
        else {
            release(size)
            return nil
        }
        let token = Unmanaged.passRetained(Token(owner: self, size: size)).toOpaque()
        gst_mini_object_weak_ref(
            UnsafeMutablePointer<GstMiniObject>(sample),
            { data, _ in
                guard let data else { return }
                let token = Unmanaged<Token>.fromOpaque(data).takeRetainedValue()
                token.owner.release(token.size)
            }, token)
        return sample
    }

    private func release(_ size: Int) {
        frames.wrappingSubtract(1, ordering: .relaxed)
        bytes.wrappingSubtract(size, ordering: .relaxed)
    }

    /// What a sample's weak reference gives back when it is freed.
    private final class Token {
        let owner: AttachedFrames
        let size: Int
        init(owner: AttachedFrames, size: Int) {
            self.owner = owner
            self.size = size
        }
    }
}
