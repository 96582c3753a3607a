# OpenCapture: the two commands a newcomer needs.
#   make demo   captures a few seconds from the default simulated camera and reports
#   make test   runs every test
SWIFT ?= swift
export PATH := $(PATH):/opt/swift/usr/bin

.PHONY: deps build release demo test test-vivid bench clean

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product capture

demo: release
	@scripts/demo

# The V4L2 suite runs inside a QEMU virtual machine with the real vivid driver.
VIVID_RUN = scripts/vivid-vm --timeout 600 --file .build/debug/OpenCapturePackageTests.xctest --file .build/debug/capture -- \
	OpenCapturePackageTests.xctest --testing-library swift-testing --filter VividDriverTests

test: build
	$(SWIFT) test --no-parallel
	$(VIVID_RUN)

bench: release
	.build/release/capture bench

clean:
	rm -rf .build out

# The V4L2 backend against the real vivid driver, in a QEMU virtual machine (about a minute).
test-vivid: build
	$(SWIFT) build --build-tests
	$(VIVID_RUN)
