#!/usr/bin/env node
// azbench testbed: `npx cdk synth` (no AWS account needed) / `npx cdk deploy`. Parameters are CDK
// context keys (cdk.json, or -c azbench:agentsPerAz=2); see lib/config.ts and docs/deployment.md.
import { buildTestbedApp } from '../lib/build';

buildTestbedApp().app.synth();
