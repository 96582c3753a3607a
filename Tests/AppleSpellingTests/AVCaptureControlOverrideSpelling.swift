// Subclasses of the AVCaptureControl.h classes overriding the members stored at creation (compile-only).
import AVFoundation
import CoreMedia
import Foundation

/// Overrides the slider's title and symbol.
final class SliderDouble: AVCaptureSlider, @unchecked Sendable {
    override var localizedTitle: String { super.localizedTitle }
    override var symbolName: String { super.symbolName }
}

/// Overrides the index picker's title, symbol and indexes.
final class IndexPickerDouble: AVCaptureIndexPicker, @unchecked Sendable {
    override var localizedTitle: String { super.localizedTitle }
    override var symbolName: String { super.symbolName }
    override var numberOfIndexes: Int { super.numberOfIndexes }
    override var localizedIndexTitles: [String] { super.localizedIndexTitles }
}
