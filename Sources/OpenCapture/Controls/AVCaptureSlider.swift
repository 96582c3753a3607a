import Foundation

/// A control that selects a `Float` from a bounded range (iOS 18): continuous, stepped, or
/// from a list of values.
///
/// The rules are Apple's: the minimum must be less than the maximum and a step greater
/// than 0, else the initialiser raises `NSInvalidArgumentException`; `value` starts at the
/// minimum and may only be set within minimum ... maximum, else it raises
/// `NSInvalidArgumentException` (`setValue(_:)` is the checked form). Apple's header does
/// not say that a value between steps (or between listed values) is moved to one, so such
/// a value is kept as set.
///
/// As on iOS, setting `value` from code does not call the action: only a user's change
/// through the Camera Control does, which on Linux is a control surface (`CaptureWebServer`'s
/// page) calling `changeValueAsUser(_:)`.
open class AVCaptureSlider: AVCaptureControl, @unchecked Sendable {
    /// The values a slider can take.
    enum Kind: Sendable {
        case continuous(ClosedRange<Float>)
        case stepped(ClosedRange<Float>, step: Float)
        case list([Float])
    }

    struct State {
        var value: Float
        var localizedValueFormat: String?
        var prominentValues: [Float] = []
        var accessibilityIdentifier: String?
        var action: ControlAction<Float>?
    }

    let kind: Kind
    /// The smallest and largest value the slider takes.
    let bounds: ClosedRange<Float>
    private let state: Mutex<State>

    private let storedLocalizedTitle: String
    /// A localized title that describes the slider's action.
    open var localizedTitle: String { storedLocalizedTitle }
    private let storedSymbolName: String
    /// The name of the SF Symbol that represents the slider.
    open var symbolName: String { storedSymbolName }

    /// A continuous slider over `range`. Raises `NSInvalidArgumentException` unless
    /// `range.lowerBound < range.upperBound`.
    public convenience init(_ localizedTitle: String, symbolName: String, in range: ClosedRange<Float>) {
        self.init(localizedTitle, symbolName: symbolName, kind: .continuous(range),
            selector: "initWithLocalizedTitle:symbolName:minValue:maxValue:")
    }

    /// A discrete slider over `range` with `step` between valid values. Raises
    /// `NSInvalidArgumentException` unless the range's bounds differ and `step > 0`.
    public convenience init(_ localizedTitle: String, symbolName: String, in range: ClosedRange<Float>, step: Float) {
        self.init(localizedTitle, symbolName: symbolName, kind: .stepped(range, step: step),
            selector: "initWithLocalizedTitle:symbolName:minValue:maxValue:step:")
    }

    /// A discrete slider whose only values are `values`. An empty list raises
    /// `NSInvalidArgumentException` (Linux: Apple's header gives no rule, but such a slider
    /// has no minimum to start at).
    public convenience init(_ localizedTitle: String, symbolName: String, values: [Float]) {
        self.init(localizedTitle, symbolName: symbolName, kind: .list(values),
            selector: "initWithLocalizedTitle:symbolName:values:")
    }

    init(_ localizedTitle: String, symbolName: String, kind: Kind, selector: String) {
        let bounds: ClosedRange<Float>
        do {
            bounds = try Self.validate(kind, selector: selector)
        } catch {
            error.raise()
        }
        self.kind = kind
        self.bounds = bounds
        self.storedLocalizedTitle = localizedTitle
        self.storedSymbolName = symbolName
        state = Mutex(State(value: bounds.lowerBound))
        super.init(concreteControl: ())
    }

    /// Checks a slider's definition as Apple's initialisers do and returns its bounds.
    static func validate(_ kind: Kind, selector: String) throws(AVCaptureException) -> ClosedRange<Float> {
        func refuse(_ text: String) -> AVCaptureException {
            AVCaptureException(.invalidArgument, selectorReason("AVCaptureSlider", selector, text))
        }
        switch kind {
        case .continuous(let range):
            guard range.lowerBound < range.upperBound else { throw refuse("minValue must be less than maxValue") }
            return range
        case .stepped(let range, let step):
            guard range.lowerBound < range.upperBound else { throw refuse("minValue must be less than maxValue") }
            guard step > 0 else { throw refuse("step must be greater than 0") }
            return range
        case .list(let values):
            guard let low = values.min(), let high = values.max() else { throw refuse("values must not be empty") }
            guard !values.contains(where: \.isNaN) else { throw refuse("values must be numbers") }
            return low...high
        }
    }

    /// The slider's value (default: its minimum). Setting a value outside minimum ... maximum
    /// raises `NSInvalidArgumentException`.
    open var value: Float {
        get { state.withLock { $0.value } }
        set { enforce { try setValue(newValue) } }
    }

    /// The checked form of setting `value` (Linux addition): throws instead of ending the
    /// process.
    public func setValue(_ newValue: Float) throws(AVCaptureException) {
        guard bounds.contains(newValue) else {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureSlider", "setValue:",
                    "value \(newValue) is outside the slider's range [\(bounds.lowerBound), \(bounds.upperBound)]"))
        }
        state.withLock { $0.value = newValue }
    }

    /// A localized format for presenting the value; only `%@` may appear in it (e.g.
    /// `"%@ fps"`). Others make the system present the value its default way.
    open var localizedValueFormat: String? {
        get { state.withLock { $0.localizedValueFormat } }
        set { state.withLock { $0.localizedValueFormat = newValue } }
    }

    /// Values that may receive a distinct appearance or behaviour.
    open var prominentValues: [Float] {
        get { state.withLock { $0.prominentValues } }
        set { state.withLock { $0.prominentValues = newValue } }
    }

    /// A string that identifies the slider.
    open var accessibilityIdentifier: String? {
        get { state.withLock { $0.accessibilityIdentifier } }
        set { state.withLock { $0.accessibilityIdentifier = newValue } }
    }

    /// Sets the action the system calls, on `actionQueue`, when the user changes the value
    /// through the Camera Control (on Linux: a control surface, see `changeValueAsUser(_:)`).
    open func setActionQueue(_ actionQueue: DispatchQueue, action: @escaping (Float) -> Void) {
        state.withLock { $0.action = ControlAction(queue: actionQueue, action: action) }
    }

    /// Apple's condition for adding a slider: an action and queue have been set.
    override var isReadyToAdd: Bool { state.withLock { $0.action != nil } }

    // MARK: Linux additions for control surfaces

    /// The smallest value (Linux addition: Apple keeps the range private).
    public var minimumValue: Float { bounds.lowerBound }
    /// The largest value (Linux addition).
    public var maximumValue: Float { bounds.upperBound }
    /// The step between valid values of a stepped slider, nil otherwise (Linux addition).
    public var step: Float? {
        if case .stepped(_, let step) = kind { step } else { nil }
    }
    /// The only values of a slider made from a list, in the order given; nil otherwise
    /// (Linux addition).
    public var listedValues: [Float]? {
        if case .list(let values) = kind { values } else { nil }
    }

    /// A user's change from a control surface, as a turn of the Camera Control (Linux
    /// addition): the value moves to the nearest one the slider offers (a step, or a listed
    /// value; clamped to its range), and the action is called with it on its queue.
    ///
    /// Throws `NSGenericException` unless the slider is enabled and in a session whose
    /// controls are active, and `NSInvalidArgumentException` for a value that is not a number.
    /// Returns the value set.
    @discardableResult
    public func changeValueAsUser(_ requested: Float) throws(AVCaptureException) -> Float {
        try checkUserMayChange("changeValueAsUser:")
        guard requested.isFinite else {
            throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureSlider", "changeValueAsUser:", "value must be a number"))
        }
        let clamped = min(max(requested, bounds.lowerBound), bounds.upperBound)
        let value: Float
        switch kind {
        case .continuous:
            value = clamped
        case .stepped(let range, let step):
            let steps = ((clamped - range.lowerBound) / step).rounded()
            value = min(range.lowerBound + steps * step, range.upperBound)
        case .list(let values):
            value = values.min { abs($0 - requested) < abs($1 - requested) } ?? clamped
        }
        let action = state.withLock { state -> ControlAction<Float>? in
            state.value = value
            return state.action
        }
        action?.call(value)
        return value
    }
}
