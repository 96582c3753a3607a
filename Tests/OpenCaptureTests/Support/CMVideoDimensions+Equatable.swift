import CaptureCore

// As apps do: Core Media's CMVideoDimensions has no `==` (a plain C struct in Apple's SDK),
// and the tests compare sizes. Apps write `@retroactive`; inside OpenCapture's own package
// Swift refuses it (the type is declared in the same package).
extension CMVideoDimensions: Equatable {
    public static func == (lhs: CMVideoDimensions, rhs: CMVideoDimensions) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height
    }
}
