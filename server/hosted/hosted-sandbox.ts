/** A hosted sandbox: one full sandbox per partner (store, journal, events, faults, jtis, reports) behind the front; the laptop is the one-partner case. */
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import { createSandbox, defaultInstanceId, type Sandbox, type SandboxOptions } from '../sandbox.js';
import { InstanceMetrics } from './instance-metrics.js';
import type { Logger } from '../logger.js';
import type { DocumentStorage } from '../store/segment-storage.js';
import { Redactor } from '../journal/redactor.js';
import { SERVICE_AUDIENCE } from '../tokens/pos-token-rules.js';
import { pingStore } from '../store/sandbox-store.js';
import type { Readiness } from '../control/sandbox-routes.js';
import { VERSION } from '../version.js';
import { hostedFront } from './hosted-front.js';
import { keyFingerprint } from '../tokens/mint-pos-token.js';
import { hostedEgress } from './partners-file.js';
import { DEFAULT_JOURNAL_LIMIT } from '../config.js';
import { HOSTED_DELIVERIES_IN_ALL, HOSTED_HAR_EXPORTS_IN_ALL, HOSTED_QUOTAS, withQuotas, SharedSlots } from './quotas.js';
import { processReportKeys } from '../checklist/report-keys.js';
import type { HostedPartner, PartnersSetup } from './partners-file.js';

export interface HostedSandboxOptions extends Omit<SandboxOptions, 'fixtures' | 'partner' | 'storage' | 'adminToken' | 'redactor' | 'reportDir' | 'readiness'> {
  setup: PartnersSetup;
  /** Each partner's store: a data file of its own, or its rows of the shared database. */
  storageFor: (partner: string) => DocumentStorage;
  /** Here at once (the default), or where the instances on one database agree: `make` makes it on a store. */
  place?: (partner: string, make: (storage: DocumentStorage, forwardKey?: string) => Promise<Sandbox>) => Promise<PlacedPartner>;
  logger: Logger;
  /** The redaction of `logger`: it learns the signatures every partner's sandbox learns. */
  logRedactor?: Redactor;
  /** Each partner's checklist reports go to a folder of its own in here. */
  reportDir: string;
  /** This instance's metrics (GET /metrics); one of its own by default. */
  metrics?: InstanceMetrics;
}

export interface PlacedPartner {
  listener: RequestListener;
  /** The partner's sandbox, when it runs in this process. */
  sandbox(): Sandbox | undefined;
  /** What the operator's health says of it while another instance runs its sandbox (partner-slot.ts). */
  followingHealth?(): Promise<Record<string, unknown>>;
}

export interface HostedSandbox {
  listener: RequestListener;
  /** Each partner's sandbox, by name (its tokens' iss), while it runs in this process. */
  partners: Map<string, PlacedPartner>;
  readiness: Readiness;
  instanceId: string;
  close(): void;
}


export async function createHostedSandbox(options: HostedSandboxOptions): Promise<HostedSandbox> {
  const { setup, storageFor, logger, reportDir, place, metrics: given, ...common } = options;
  const metrics = given ?? new InstanceMetrics();
  const readiness: Readiness = { draining: false };
  const instanceId = options.instanceId ?? defaultInstanceId();
  const partners = new Map<string, PlacedPartner>();
  const allExports = new SharedSlots(setup.harExportsInAll ?? HOSTED_HAR_EXPORTS_IN_ALL);
  const allDeliveries = new SharedSlots(setup.deliveriesInAll ?? HOSTED_DELIVERIES_IN_ALL);
  metrics.countDeliveries(() => allDeliveries.taken);
  // The operator's keys; without them (a trial, a test), a key of this process's own, and the reports say self-signed.
  const reportKeys = setup.reportKeys ?? options.reportKeys ?? processReportKeys();
  const here = async (partner: string, make: (storage: DocumentStorage) => Promise<Sandbox>): Promise<PlacedPartner> => {
    const sandbox = await make(storageFor(partner));
    return { listener: sandbox.app as unknown as RequestListener, sandbox: () => sandbox };
  };
  for (const partner of setup.partners) {
    const name = partner.identity.name;
    const make = async (storage: DocumentStorage, forwardKey?: string) => {
      const made = await createSandbox({
        ...common,
        fixtures: partner.fixtures,
        partner: partner.identity,
        storage,
        logger: logger.child({ partner: name }),
        redactor: new Redactor(partner.identity.nonProdKey, options.logRedactor),
        adminToken: partner.adminToken,
        posOrderUrl: partner.posOrderUrl ?? options.posOrderUrl,
        reportDir: join(reportDir, name),
        readiness,
        instanceId,
        forwardKey,
        egress: hostedEgress(name, partner.egress, [partner.posOrderUrl ?? options.posOrderUrl]),
        hosted: true,
        quotas: withQuotas(HOSTED_QUOTAS, { journalEntries: options.journalLimit ?? DEFAULT_JOURNAL_LIMIT }, partner.quotas),
        allExports,
        allDeliveries,
        reportKeys,
      });
      metrics.watch(made);
      return made;
    };
    partners.set(name, await (place ?? here)(name, make));
  }
  metrics.countPartners(partners.size, () => [...partners.values()].filter((placed) => placed.sandbox() !== undefined).length);
  const front = hostedFront({
    partners: setup.partners.map((partner) => {
      const placed = partners.get(partner.identity.name)!;
      return {
        name: partner.identity.name,
        adminToken: partner.adminToken,
        nonProdKey: partner.identity.nonProdKey,
        app: placed.listener,
        listing: () => listing(partner, partner.posOrderUrl ?? options.posOrderUrl),
        health: () => partnerHealth(placed),
      };
    }),
    operatorToken: setup.operatorToken,
    tellUnknownPartners: setup.tellUnknownPartners,
    logger,
    clock: options.clock ?? Date.now,
    version: VERSION,
    instanceId,
    metrics,
    reportKeys,
  });
  return {
    listener: front.listener,
    partners,
    readiness,
    instanceId,
    close: () => {
      for (const placed of partners.values()) placed.sandbox()?.close();
    },
  };
}

/** What the operator's GET /_sandbox/partners shows of a partner: never a key or a token. */
function listing(partner: HostedPartner, posOrderUrl: string | undefined): Record<string, unknown> {
  return {
    name: partner.identity.name,
    displayName: partner.displayName,
    keyFingerprint: keyFingerprint(partner.identity.nonProdKey),
    tokenAudience: SERVICE_AUDIENCE,
    locations: partner.fixtures.locations.map((location) => ({ id: location.id, kind: location.kind })),
    posOrderUrl: posOrderUrl ?? null,
    capabilities: partner.capabilities,
  };
}

async function partnerHealth(placed: PlacedPartner): Promise<Record<string, unknown>> {
  const sandbox = placed.sandbox();
  // Led by another instance: this one only sends its requests there, and says which leads.
  if (sandbox === undefined) return (await placed.followingHealth?.()) ?? { status: 'ok', role: 'follows' };
  const ping = await pingStore(sandbox.store.storage);
  return {
    status: ping.ok ? 'ok' : 'unavailable',
    role: 'leads',
    storeKind: sandbox.store.storage.kind,
    storeLatencyMs: ping.ms,
    ...(ping.ok ? {} : { storeError: ping.error }),
    orders: sandbox.store.orders.size,
    refunds: sandbox.store.refunds.size,
    journal: sandbox.journal.size,
    journalBytes: sandbox.journal.sizeBytes,
    faults: sandbox.faults.size,
    quota: sandbox.quota.view(),
  };
}
