import Foundation

/// A background server that did not come up (fails the test that needed it).
struct ServerError: Error, CustomStringConvertible {
    /// What happened, with the server's output.
    var message: String
    var description: String { message }
}
