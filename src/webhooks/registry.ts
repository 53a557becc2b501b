import type { IdGenerator } from '../store/ids.ts'
import type { WebhookRecord } from './schema.ts'

/**
 * The webhooks of every key (a key's webhooks serve all its scenario worlds; a reset keeps them). A key issued by
 * the portal shares its platform's webhooks (`setOwner`), as the service keeps webhooks per platform: the platform's
 * cookie session and each of its keys read and write one list, and every key's events reach it.
 */
export class WebhookRegistry {
  readonly #byTenant = new Map<string, Map<string, WebhookRecord>>()
  /** tenant -> the tenant whose webhooks it uses (portal keys -> their platform) */
  readonly #owners = new Map<string, string>()
  readonly #ids: IdGenerator
  /** told of each change (--state-dir writes the registry again only then) */
  #onChange: (() => void) | null = null

  constructor(ids: IdGenerator) {
    this.#ids = ids
  }

  /**
   * Calls `listener` after each change (add, delete, owner, active flag): every change goes through a method here,
   * records are not changed in place.
   */
  onChange(listener: (() => void) | null): void {
    this.#onChange = listener
  }

  /** Makes `tenant` use `owner`'s webhooks from now on. */
  setOwner(tenant: string, owner: string): void {
    this.#owners.set(tenant, owner)
    this.#onChange?.()
  }

  #owner(tenant: string): string {
    return this.#owners.get(tenant) ?? tenant
  }

  /** Every key's webhooks and owners, for --state-dir. */
  entries(): { hooks: [string, WebhookRecord[]][]; owners: [string, string][] } {
    return {
      hooks: [...this.#byTenant].map(([tenant, hooks]) => [tenant, [...hooks.values()]]),
      owners: [...this.#owners],
    }
  }

  /** Puts back what `entries()` returned (a restart with --state-dir). */
  restore(saved: ReturnType<WebhookRegistry['entries']>): void {
    for (const [tenant, owner] of saved.owners) this.#owners.set(tenant, owner)
    for (const [tenant, hooks] of saved.hooks)
      this.#byTenant.set(tenant, new Map(hooks.map((h) => [h.id, h])))
  }

  /** Registers a URL for a key; `secret` defaults to 32 random bytes as hex (the service's format). */
  add(tenant: string, url: string, at: Date, secret?: string, clientId?: string | null): WebhookRecord {
    tenant = this.#owner(tenant)
    const record: WebhookRecord = {
      id: this.#ids.ulid(at.getTime()),
      url,
      secret: secret ?? this.#ids.hex(32),
      isActive: true,
      createdAt: at.toISOString(),
      ...(clientId ? { clientId } : {}),
    }
    let hooks = this.#byTenant.get(tenant)
    if (!hooks) {
      hooks = new Map()
      this.#byTenant.set(tenant, hooks)
    }
    hooks.set(record.id, record)
    this.#onChange?.()
    return record
  }

  /** A key's webhooks, oldest first. */
  list(tenant: string): WebhookRecord[] {
    return [...(this.#byTenant.get(this.#owner(tenant))?.values() ?? [])]
  }

  /** The webhooks a client ID registered (the Auth API's scope), oldest first. */
  ofClient(tenant: string, clientId: string): WebhookRecord[] {
    return this.list(tenant).filter((w) => w.clientId === clientId)
  }

  /** One of a key's webhooks. */
  get(tenant: string, id: string): WebhookRecord | undefined {
    return this.#byTenant.get(this.#owner(tenant))?.get(id)
  }

  /** Enables or disables one of a key's webhooks (its URL and secret stay); the record, or undefined. */
  setActive(tenant: string, id: string, isActive: boolean): WebhookRecord | undefined {
    const record = this.get(tenant, id)
    if (!record) return undefined
    record.isActive = isActive
    this.#onChange?.()
    return record
  }

  /** Forgets a key: its own webhooks and the owner it used (a claimable sandbox's expiry). */
  forget(tenant: string): void {
    const had = this.#byTenant.delete(tenant)
    if (this.#owners.delete(tenant) || had) this.#onChange?.()
  }

  /** Removes one of a key's webhooks. */
  delete(tenant: string, id: string): boolean {
    const removed = this.#byTenant.get(this.#owner(tenant))?.delete(id) ?? false
    if (removed) this.#onChange?.()
    return removed
  }
}
