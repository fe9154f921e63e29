/** Take an entry out of the error reference, by its id (provider-status-title). */
export class WithdrawErrorEntryCommand {
  constructor(
    readonly id: string,
    readonly actor: string,
    readonly reason: string | null = null,
  ) {}
}
