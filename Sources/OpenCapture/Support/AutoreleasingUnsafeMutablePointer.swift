#if !_runtime(_ObjC)
/// A pointer to an out-parameter, as Apple's Swift overlay gives Objective-C `T **`
/// arguments (Linux's standard library has no Objective-C, so no such type): iOS code
/// sets `pointee` exactly as it does on Apple platforms.
///
/// Valid only during the call that hands it out, like the pointer it wraps.
@frozen
public struct AutoreleasingUnsafeMutablePointer<Pointee>: Equatable, Hashable {
    @usableFromInline let pointer: UnsafeMutablePointer<Pointee>

    /// Wraps `pointer`, which the caller keeps valid while the result is used.
    @inlinable
    public init(_ pointer: UnsafeMutablePointer<Pointee>) { self.pointer = pointer }

    /// The value pointed to.
    @inlinable
    public var pointee: Pointee {
        get { pointer.pointee }
        nonmutating set { pointer.pointee = newValue }
    }
}
#endif
