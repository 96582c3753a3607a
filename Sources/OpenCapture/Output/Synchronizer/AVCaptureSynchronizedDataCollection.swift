import Foundation

/// The data of several outputs for one moment, as an `AVCaptureDataOutputSynchronizer`
/// delivers it: subscript it by output, or iterate it (Swift iterates the data, in the
/// order of the synchronizer's `dataOutputs`).
open class AVCaptureSynchronizedDataCollection: NSObject, @unchecked Sendable {
    private let entries: [(output: AVCaptureOutput, data: AVCaptureSynchronizedData)]

    init(_ entries: [(output: AVCaptureOutput, data: AVCaptureSynchronizedData)]) {
        self.entries = entries
        super.init()
    }

    /// The data of `captureOutput`, or nil if the collection has none from it.
    open func synchronizedData(for captureOutput: AVCaptureOutput) -> AVCaptureSynchronizedData? {
        entries.first { $0.output === captureOutput }?.data
    }

    /// `collection[output]`: the same as `synchronizedData(for:)`.
    open subscript(key: AVCaptureOutput) -> AVCaptureSynchronizedData? { synchronizedData(for: key) }

    /// How many outputs have data in the collection.
    open var count: Int { entries.count }

    /// The outputs with data in the collection (what Objective-C fast enumeration yields).
    var outputs: [AVCaptureOutput] { entries.map(\.output) }
}

extension AVCaptureSynchronizedDataCollection: Sequence {
    /// Iterates the collection's data, as Apple's Swift overlay does.
    public struct Iterator: IteratorProtocol {
        private let collection: AVCaptureSynchronizedDataCollection
        private var index = 0

        init(_ collection: AVCaptureSynchronizedDataCollection) { self.collection = collection }

        public mutating func next() -> AVCaptureSynchronizedData? {
            guard index < collection.entries.count else { return nil }
            defer { index += 1 }
            return collection.entries[index].data
        }
    }

    public func makeIterator() -> Iterator { Iterator(self) }
}
