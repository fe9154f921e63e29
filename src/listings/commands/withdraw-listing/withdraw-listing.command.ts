/** Take a listing out of the directory. Withdrawing an unknown or withdrawn listing reports not-found. */
export class WithdrawListingCommand {
  constructor(
    readonly slug: string,
    readonly actor: string,
    readonly reason: string | null = null,
  ) {}
}
