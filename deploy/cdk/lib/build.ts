// Builds the testbed app from CDK context, with cdk-nag's AWS Solutions checks as a validation
// plugin (synth fails on any finding that is not acknowledged with a reason in the stack).
import * as cdk from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readConfig } from './config';
import { TestbedStack } from './testbed-stack';

export function buildTestbedApp(appProps: cdk.AppProps = {}): { app: cdk.App; stack: TestbedStack } {
  const app = new cdk.App(appProps);
  const config = readConfig(app.node);
  // Environment-agnostic (no account needed) unless AZs are named: then the region must be known
  // (-c azbench:region=... or CDK_DEFAULT_REGION).
  const region = app.node.tryGetContext('azbench:region') ?? process.env.CDK_DEFAULT_REGION;
  if (config.azs && !region) {
    throw new Error('context azbench:azs needs a region: -c azbench:region=ap-northeast-1');
  }
  const stack = new TestbedStack(app, app.node.tryGetContext('azbench:stackName') ?? 'AzbenchTestbed', {
    config,
    env: config.azs ? { account: process.env.CDK_DEFAULT_ACCOUNT, region } : undefined,
    description: 'azbench multi-AZ storage benchmark testbed (VPC, agents, EFS, FSx for OpenZFS Multi-AZ)',
  });
  cdk.Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  return { app, stack };
}
