/// The version `capture --version` prints: the package's, kept in this one constant.
enum ToolVersion {
    static let number = "0.1.0"

    /// `capture 0.1.0 (OpenCapture)`.
    static var line: String { "capture \(number) (OpenCapture)" }
}
