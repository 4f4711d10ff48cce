//! The few token shapes the macro emits, made with the compiler's own
//! `proc_macro` API: Rust text the macro writes itself, a spanned
//! `compile_error!`, and a value put in a call's parentheses. This is the
//! part of `quote` the macro used (see `docs/dependencies.md`).

use proc_macro::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

/// Tokens from Rust text the macro wrote (never from user input, which
/// goes in as literals made with [`Literal`]'s constructors).
pub fn code(text: &str) -> TokenStream {
    text.parse()
        .unwrap_or_else(|_| compile_error(Span::call_site(), "include_skills! made invalid tokens"))
}

/// `::core::compile_error! { "message" }`, every token at `span`, so the
/// compiler points the error at what caused it.
pub fn compile_error(span: Span, message: &str) -> TokenStream {
    let spanned = |mut token: TokenTree| {
        token.set_span(span);
        token
    };
    let colons = || {
        [
            spanned(TokenTree::Punct(Punct::new(':', Spacing::Joint))),
            spanned(TokenTree::Punct(Punct::new(':', Spacing::Alone))),
        ]
    };
    let body = TokenStream::from(spanned(TokenTree::Literal(Literal::string(message))));
    let mut out = TokenStream::new();
    out.extend(colons());
    out.extend([spanned(TokenTree::Ident(Ident::new("core", span)))]);
    out.extend(colons());
    out.extend([
        spanned(TokenTree::Ident(Ident::new("compile_error", span))),
        spanned(TokenTree::Punct(Punct::new('!', Spacing::Alone))),
        spanned(TokenTree::Group(Group::new(Delimiter::Brace, body))),
    ]);
    out
}

/// `callee(argument)`: `argument` in the parentheses of a call.
pub fn call(callee: &str, argument: TokenStream) -> TokenStream {
    let mut out = code(callee);
    out.extend([TokenTree::Group(Group::new(
        Delimiter::Parenthesis,
        argument,
    ))]);
    out
}

/// `{ statements }`: a block.
pub fn block(statements: TokenStream) -> TokenStream {
    TokenStream::from(TokenTree::Group(Group::new(Delimiter::Brace, statements)))
}

/// A string literal for Rust text, escaped as the compiler would write it.
pub fn string(text: &str) -> String {
    Literal::string(text).to_string()
}

/// Every token of `tokens` (inside groups too) at `span`.
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|token| match token {
            TokenTree::Group(group) => {
                let mut inner = Group::new(group.delimiter(), respan(group.stream(), span));
                inner.set_span(span);
                TokenTree::Group(inner)
            }
            mut token => {
                token.set_span(span);
                token
            }
        })
        .collect()
}

/// A compiler warning at `span` on stable Rust, which has no API for one:
/// a block that defines a `#[deprecated]` constant named `name`, whose
/// note is `message`, and uses it (the way the `proc-macro-warning` crate
/// does). rustc prints `warning: use of deprecated constant
/// `…::name`: message` at `span`; `#[deny(deprecated)]` or `-D warnings`
/// makes it an error, `#[allow(deprecated)]` silences it. `name` must be
/// an identifier (the macro gives it the rule code, `-` written `_`).
///
/// Every token is at `span`, the span of something the user wrote: a
/// use whose span comes from a macro's definition is one rustc does not
/// warn about.
pub fn warning(span: Span, name: &str, message: &str) -> TokenStream {
    let text = format!(
        "{{ #[deprecated(note = {})] #[allow(non_upper_case_globals)] const {name}: () = (); let _ = {name}; }}",
        string(message)
    );
    respan(code(&text), span)
}
