/// A mistake in how the tool was called: printed as one line, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }

    /// "<option> must be <allowed>, not '<value>'": the one shape of a refused value.
    static func value(_ option: String, _ text: String, allowed: String) -> UsageError {
        UsageError("\(option) must be \(allowed), not \(ErrorText.quoted(text))")
    }
}
