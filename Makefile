# OpenCapture: the two commands a newcomer needs.
#   make demo   captures a few seconds from the default simulated camera and reports
#   make test   runs every test
SWIFT ?= swift
export PATH := $(PATH):/opt/swift/usr/bin

.PHONY: deps build release demo test bench clean

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product capture

demo: release
	@scripts/demo

test: build
	$(SWIFT) test --no-parallel

bench: release
	.build/release/capture bench

clean:
	rm -rf .build out
