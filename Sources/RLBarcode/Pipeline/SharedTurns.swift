import Synchronization

/// Items `0..<count` of a frame's work shared by two threads: each takes
/// the next one no thread has taken (``take(below:)``) and marks it done
/// (``finish()``); a thread waiting for all of them reads ``finished``,
/// whose acquire ordering makes the finished items' writes visible to it.
/// Allocates nothing; ``reset()`` before each round, while no thread
/// takes items.
struct SharedTurns: ~Copyable {
    private let next = Atomic<Int>(0)
    private let done = Atomic<Int>(0)

    /// Starts a round at item 0.
    func reset() {
        next.store(0, ordering: .relaxed)
        done.store(0, ordering: .relaxed)
    }

    /// The next item no thread has taken; nil once all `count` are taken.
    func take(below count: Int) -> Int? {
        let k = next.wrappingAdd(1, ordering: .relaxed).oldValue
        return k < count ? k : nil
    }

    /// Marks an item this thread took done.
    func finish() { done.wrappingAdd(1, ordering: .releasing) }

    /// How many items are done.
    var finished: Int { done.load(ordering: .acquiring) }
}
