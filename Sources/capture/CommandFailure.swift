/// A command that was called correctly but could not do its job (the camera failed, the
/// disk is full): printed as one line, exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
