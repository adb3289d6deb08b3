//! The syntax tree of the accepted CUDA-C subset, with spans into the original source.

use warpsafe_ir::{ScalarType, Span};

/// A parsed source file.
#[derive(Debug, Clone, Default)]
pub struct TranslationUnit {
    /// Functions and file-scope constants, in source order.
    pub items: Vec<Item>,
}

/// A file-level item.
#[derive(Debug, Clone)]
pub enum Item {
    /// A `__global__` kernel or `__device__` helper definition.
    Function(Function),
    /// A file-scope `const`/`constexpr` scalar constant.
    Const(Decl),
}

/// Whether a function is a kernel or a device helper.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FnKind {
    /// `__global__`
    Kernel,
    /// `__device__`
    Device,
}

/// A function definition.
#[derive(Debug, Clone)]
pub struct Function {
    /// Kernel or helper.
    pub kind: FnKind,
    /// Its name.
    pub name: String,
    /// Where its name is written.
    pub name_span: Span,
    /// The return type.
    pub ret: Type,
    /// Its parameters.
    pub params: Vec<ParamDecl>,
    /// The body statements.
    pub body: Vec<Stmt>,
    /// The whole definition.
    pub span: Span,
}

/// A function parameter.
#[derive(Debug, Clone)]
pub struct ParamDecl {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// The declaration.
    pub span: Span,
    /// A file-scope `__constant__` variable passed as a buffer: memory no kernel may write,
    /// so a write to it is a finding (not a rejection, as a write through `const T*` is).
    pub constant: bool,
}

/// A type as written: a scalar or `void`, possibly behind one pointer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Type {
    /// The scalar type, or `None` for `void`.
    pub base: Option<ScalarType>,
    /// True for `T*`.
    pub ptr: bool,
    /// True when the (pointed-to) base type is `const`.
    pub konst: bool,
    /// True when the (pointed-to) base type is `volatile`.
    pub volatile: bool,
    /// Where the type is written.
    pub span: Span,
}

/// A statement.
#[derive(Debug, Clone)]
pub struct Stmt {
    /// What it is.
    pub kind: StmtKind,
    /// Where.
    pub span: Span,
}

/// The shapes of statements.
#[derive(Debug, Clone)]
pub enum StmtKind {
    /// A declaration of one or more variables or arrays.
    Decl(Decl),
    /// An expression evaluated for its effects.
    Expr(Expr),
    /// `if (c) a else b`
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    /// `for (init; cond; update) body`
    For {
        /// A declaration or expression statement.
        init: Option<Box<Stmt>>,
        /// The condition (absent means true).
        cond: Option<Expr>,
        /// The update expression.
        update: Option<Expr>,
        /// The body.
        body: Box<Stmt>,
    },
    /// `while (c) body`
    While(Expr, Box<Stmt>),
    /// `do body while (c);`
    DoWhile(Box<Stmt>, Expr),
    /// `break;`
    Break,
    /// `continue;`
    Continue,
    /// `return e;`
    Return(Option<Expr>),
    /// `{ ... }`
    Block(Vec<Stmt>),
    /// `;`
    Empty,
}

/// Storage and sharing qualifiers of a declaration.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Storage {
    /// `__shared__`
    pub shared: bool,
    /// `extern`
    pub extern_: bool,
    /// `const` / `constexpr` on the declared object itself.
    pub konst: bool,
    /// Declared outside any function (a file-scope `__shared__` variable the clang front end
    /// declares again in each kernel): visible in the helpers inlined into the kernel too.
    pub file_scope: bool,
}

/// A declaration: one base type, several declarators.
#[derive(Debug, Clone)]
pub struct Decl {
    /// Storage qualifiers.
    pub storage: Storage,
    /// The base type (each declarator may add a pointer).
    pub base: Type,
    /// The declared names.
    pub declarators: Vec<Declarator>,
}

/// One declared name: `*p = e`, `a[N][M]`, `acc[4] = {0, 0, 0, 0}`.
#[derive(Debug, Clone)]
pub struct Declarator {
    /// The name.
    pub name: String,
    /// Where the name is written.
    pub name_span: Span,
    /// True for `*name`.
    pub ptr: bool,
    /// Array extents, outermost first (`None` for `[]`).
    pub dims: Vec<Option<Expr>>,
    /// The initialiser.
    pub init: Option<Init>,
    /// The whole declarator.
    pub span: Span,
}

/// An initialiser.
#[derive(Debug, Clone)]
pub enum Init {
    /// `= e`
    Expr(Expr),
    /// `= { a, b, ... }`
    List(Vec<Expr>, Span),
}

/// An expression.
#[derive(Debug, Clone)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where.
    pub span: Span,
}

/// The shapes of expressions.
#[derive(Debug, Clone)]
pub enum ExprKind {
    /// An integer literal with its C type.
    Int(u64, ScalarType),
    /// A floating literal with its C type.
    Float(f64, ScalarType),
    /// `true` / `false`.
    Bool(bool),
    /// A name.
    Ident(String),
    /// `e.field` (only the launch builtins have fields).
    Member(Box<Expr>, String),
    /// `a[i]`
    Index(Box<Expr>, Box<Expr>),
    /// `f(args)`; the span is the callee name's.
    Call(String, Span, Vec<Expr>),
    /// A prefix operator.
    Unary(UnaryOp, Box<Expr>),
    /// `++`/`--`, prefix or postfix.
    IncDec {
        /// True for `++`.
        inc: bool,
        /// True for the prefix form.
        prefix: bool,
        /// The operand.
        target: Box<Expr>,
    },
    /// A binary operator (including `&&`, `||`).
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `a = b` or `a op= b`.
    Assign(Option<BinaryOp>, Box<Expr>, Box<Expr>),
    /// `c ? a : b`
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `(T)e` or `static_cast<T>(e)`.
    Cast(Type, Box<Expr>),
    /// `a, b`
    Comma(Box<Expr>, Box<Expr>),
    /// `sizeof(T)`
    SizeOf(Type),
}

/// Prefix operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    /// `-`
    Neg,
    /// `+`
    Plus,
    /// `!`
    Not,
    /// `~`
    BitNot,
    /// `*`
    Deref,
    /// `&`
    AddrOf,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `&`
    BitAnd,
    /// `^`
    BitXor,
    /// `|`
    BitOr,
    /// `&&`
    And,
    /// `||`
    Or,
}

impl Expr {
    /// Builds an expression.
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }
}

/// Calls `f` with the name of every function `e` calls, nested calls included.
pub fn visit_calls(e: &Expr, f: &mut dyn FnMut(&str)) {
    visit_subexprs(e, &mut |e| {
        if let ExprKind::Call(name, _, _) = &e.kind {
            f(name);
        }
    });
}

/// Calls `f` with every expression of `s` and of the statements nested in it (array extents
/// and initialisers included), in source order; sub-expressions are `f`'s to visit.
pub fn visit_stmt_exprs(s: &Stmt, f: &mut dyn FnMut(&Expr)) {
    match &s.kind {
        StmtKind::Decl(d) => {
            for dc in &d.declarators {
                dc.dims.iter().flatten().for_each(&mut *f);
                match &dc.init {
                    Some(Init::Expr(e)) => f(e),
                    Some(Init::List(items, _)) => items.iter().for_each(&mut *f),
                    None => {}
                }
            }
        }
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => f(e),
        StmtKind::If(c, a, b) => {
            f(c);
            visit_stmt_exprs(a, f);
            if let Some(b) = b {
                visit_stmt_exprs(b, f);
            }
        }
        StmtKind::For {
            init,
            cond,
            update,
            body,
        } => {
            if let Some(i) = init {
                visit_stmt_exprs(i, f);
            }
            cond.iter().chain(update).for_each(&mut *f);
            visit_stmt_exprs(body, f);
        }
        StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
            f(c);
            visit_stmt_exprs(b, f);
        }
        StmtKind::Block(b) => b.iter().for_each(|s| visit_stmt_exprs(s, f)),
        StmtKind::Break | StmtKind::Continue | StmtKind::Return(None) | StmtKind::Empty => {}
    }
}

/// Calls `f` with `e` and each of its sub-expressions.
pub fn visit_subexprs(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        f(e);
        match &e.kind {
            ExprKind::Call(_, _, args) => stack.extend(args),
            ExprKind::Member(a, _) | ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => stack.push(a),
            ExprKind::IncDec { target, .. } => stack.push(target),
            ExprKind::Index(a, b)
            | ExprKind::Binary(_, a, b)
            | ExprKind::Assign(_, a, b)
            | ExprKind::Comma(a, b) => stack.extend([&**a, &**b]),
            ExprKind::Cond(c, a, b) => stack.extend([&**c, &**a, &**b]),
            ExprKind::Int(..)
            | ExprKind::Float(..)
            | ExprKind::Bool(_)
            | ExprKind::Ident(_)
            | ExprKind::SizeOf(_) => {}
        }
    }
}
