/// Counts in messages with their nouns in the right number: "1 frame", "2 frames".
enum Plural {
    /// `count` and `singular`, or `plural` (default `singular` + "s") unless the count is 1.
    static func count(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
    }

    /// As `count(_:_:_:)` for a 64-bit count (bytes).
    static func count(_ count: Int64, _ singular: String, _ plural: String? = nil) -> String {
        "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
    }
}
