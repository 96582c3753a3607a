// CATransaction.h (iOS 18 SDK) as layer code spells it around preview-layer changes.
import Foundation
import QuartzCore
import Testing

/// Touches every declaration of CATransaction.h but the timing function; compiled, never called.
func spellCATransaction(_ layer: CALayer) {
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    CATransaction.setAnimationDuration(0)
    CATransaction.setCompletionBlock { layer.isHidden = false }
    CATransaction.setValue(1, forKey: "custom")
    layer.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
    let disabled: Bool = CATransaction.disableActions()
    let duration: CFTimeInterval = CATransaction.animationDuration()
    let completion: (() -> Void)? = CATransaction.completionBlock()
    let custom: Any? = CATransaction.value(forKey: "custom")
    CATransaction.commit()
    CATransaction.flush()
    CATransaction.lock()
    CATransaction.unlock()
    _ = (disabled, duration, completion, custom)
}

@Suite("CATransaction spelling", .serialized)
struct CATransactionSpellingTests {
    @Test("values nest per transaction; completion blocks run at commit, innermost first; flush commits the implicit one")
    func nestingAndCompletion() {
        var order: [String] = []
        #expect(CATransaction.animationDuration() == 0.25 && !CATransaction.disableActions())
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        CATransaction.setCompletionBlock { order.append("outer") }
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        #expect(CATransaction.disableActions(), "inherited from the outer transaction")
        CATransaction.setCompletionBlock { order.append("inner") }
        CATransaction.commit()
        #expect(order == ["inner"])
        #expect(CATransaction.animationDuration() == 0.25, "the inner value ended with it")
        CATransaction.commit()
        #expect(order == ["inner", "outer"])
        #expect(!CATransaction.disableActions())
        CATransaction.setCompletionBlock { order.append("implicit") }
        #expect(order.count == 2)
        CATransaction.flush()
        #expect(order == ["inner", "outer", "implicit"])
    }
}
