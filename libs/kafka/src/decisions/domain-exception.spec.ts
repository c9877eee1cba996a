import { DomainException, type StatusOfCode } from './domain-exception';
import { RequestRefusedError } from './request-decision';

enum ShelfErrorCode {
  BookNotFound = 'book_not_found',
  TitleTaken = 'title_taken',
  ShelfFull = 'shelf_full',
}

const STATUSES: StatusOfCode<ShelfErrorCode> = {
  [ShelfErrorCode.BookNotFound]: 404,
  [ShelfErrorCode.TitleTaken]: 409,
  [ShelfErrorCode.ShelfFull]: 422,
};

class ShelfException extends DomainException<ShelfErrorCode> {
  constructor(issues: ConstructorParameters<typeof DomainException<ShelfErrorCode>>[1]) {
    super(STATUSES, issues);
  }
}

describe('DomainException', () => {
  it('answers with the status its first issue maps to, one JSON:API error per issue', () => {
    const refusal = new ShelfException([
      { code: ShelfErrorCode.TitleTaken, detail: 'Dune is on the shelf.', pointer: '/data/attributes/title' },
      { code: ShelfErrorCode.ShelfFull, detail: 'The shelf holds 3 books.' },
    ]);
    expect(refusal).toBeInstanceOf(RequestRefusedError);
    expect(refusal.name).toBe('ShelfException');
    expect(refusal.code).toBe(ShelfErrorCode.TitleTaken);
    expect(refusal.status).toBe(409);
    expect(refusal.message).toBe('Dune is on the shelf. The shelf holds 3 books.');
    expect(refusal.toErrors()).toEqual([
      {
        status: '409',
        title: 'Conflict',
        detail: 'Dune is on the shelf.',
        source: { pointer: '/data/attributes/title' },
      },
      { status: '422', title: 'Validation Error', detail: 'The shelf holds 3 books.' },
    ]);
  });

  it('takes a single issue as well as a list, and refuses an empty list', () => {
    expect(
      new ShelfException({ code: ShelfErrorCode.BookNotFound, detail: 'No book 7.' }).toErrors(),
    ).toEqual([{ status: '404', title: 'Not Found', detail: 'No book 7.' }]);
    expect(() => new ShelfException([])).toThrow(RangeError);
  });
});
