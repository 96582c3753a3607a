import Foundation

/// One audio input or output of a route (AVAudioSessionRoute.h).
///
/// On Linux each microphone `AVCaptureDevice` is one input port: `uid` is the device's
/// `uniqueID`, `portName` its `localizedName`, and `portType` `.builtInMic` for the
/// simulated microphone, `.usbAudio` for a USB sound card, `.PCI` for a PCI one, `.virtual`
/// for the kernel's test cards (snd-aloop, snd-dummy) and `.lineIn` for any other card.
/// Ports have no data sources (nil, as for ports without selectable ones on iOS).
open class AVAudioSessionPortDescription: NSObject, @unchecked Sendable {
    /// The kind of port.
    open var portType: AVAudioSession.Port { kind }
    /// A name to show people.
    open var portName: String { name }
    /// The port's unique identifier (the microphone's `uniqueID`).
    open var uid: String { identifier }
    /// Whether the port processes voice calls in hardware: never on Linux.
    open var hasHardwareVoiceCallProcessing: Bool { false }
    /// Whether spatial audio is on for the port: never for inputs.
    open var isSpatialAudioEnabled: Bool { false }
    /// The port's selectable data sources: none.
    open var dataSources: [AVAudioSessionDataSourceDescription]? { nil }
    /// The selected data source: none.
    open var selectedDataSource: AVAudioSessionDataSourceDescription? { nil }
    /// The preferred data source: none.
    open var preferredDataSource: AVAudioSessionDataSourceDescription? { nil }

    /// Selects a data source; the port has none, so any other than nil is a bad parameter.
    open func setPreferredDataSource(_ dataSource: AVAudioSessionDataSourceDescription?) throws {
        if dataSource != nil { throw AVAudioSession.error(.badParam) }
    }

    private let kind: AVAudioSession.Port
    private let name: String
    private let identifier: String

    init(portType: AVAudioSession.Port, portName: String, uid: String) {
        kind = portType
        name = portName
        identifier = uid
        super.init()
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVAudioSessionPortDescription else { return false }
        return other.uid == uid && other.portType == portType
    }

    open override var hash: Int { uid.hashValue }

    open override var description: String { "<AVAudioSessionPortDescription: type = \(kind.rawValue); name = \(name); UID = \(identifier)>" }
}

/// A data source of a port (a microphone of several on a device). No Linux port has any.
open class AVAudioSessionDataSourceDescription: NSObject, @unchecked Sendable {
    /// The data source's identifier.
    open var dataSourceID: NSNumber { NSNumber(value: 0) }
    /// A name to show people.
    open var dataSourceName: String { "" }

    private override init() { super.init() }
}

/// The inputs and outputs audio takes now.
///
/// On Linux the inputs are the one microphone a record category routes from (the preferred
/// input, else the default audio device); outputs are empty: OpenCapture plays no audio.
open class AVAudioSessionRouteDescription: NSObject, @unchecked Sendable {
    /// The route's inputs.
    open var inputs: [AVAudioSessionPortDescription] { routeInputs }
    /// The route's outputs.
    open var outputs: [AVAudioSessionPortDescription] { [] }

    private let routeInputs: [AVAudioSessionPortDescription]

    init(inputs: [AVAudioSessionPortDescription]) {
        routeInputs = inputs
        super.init()
    }

    open override var description: String { "<AVAudioSessionRouteDescription: inputs = \(routeInputs); outputs = ()>" }
}
